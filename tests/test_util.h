// What the test suites share: cells written as CodinGame (x, y) coordinates, running a program to
// capture what it prints, reading a file whole, and the test program's scratch files.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>

#include "bitboard.h"

namespace yav {

// The cells at the given (x, y) as a bitboard: cellsAt({{0, 4}, {2, 4}}). A pair off the board
// fails the test (cellAt would name a cell of another row, or a bit beyond the board).
inline Bitboard cellsAt(std::initializer_list<std::pair<int, int>> xy) {
  Bitboard b = 0;
  for (const auto& [x, y] : xy) {
    if (onBoardXY(x, y)) b |= bit(cellAt(x, y));
    else ADD_FAILURE() << "(" << x << ", " << y << ") is not a cell of the board";
  }
  return b;
}

// A shell command's standard output (append " 2>&1" to capture its errors too) and exit code.
struct CommandRun {
  int status = -1;  // the exit code; -1 when the command could not start or a signal ended it
  std::string out;
};

inline CommandRun runCommand(const std::string& command) {
  CommandRun r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// A file's whole content ("" when it cannot be read).
inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A path for a scratch file `name` in this test program's own directory (per process, so that two
// runs at the same time share nothing). The directory is made on first use and removed, with
// everything in it, when the program exits; forked children (which leave with _exit) never remove it.
inline std::string scratchPath(const std::string& name) {
  struct Directory {
    pid_t owner = ::getpid();
    std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / ("yav_tests_" + std::to_string(owner));
    Directory() { std::filesystem::create_directories(path); }
    ~Directory() {
      std::error_code ignored;
      if (::getpid() == owner) std::filesystem::remove_all(path, ignored);
    }
  };
  static Directory directory;
  return (directory.path / name).string();
}

}  // namespace yav
