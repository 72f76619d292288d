// What the test suites share: cells written as CodinGame (x, y) coordinates, running a program to
// capture what it prints, reading a file whole, waiting for a program's progress, and the test
// program's scratch files.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "bitboard.h"
#include "board.h"
#include "tools/common/moves_text.h"

namespace yav {

// The cells at the given (x, y) as a bitboard: cellsAt({{0, 4}, {2, 4}}). A pair off the board
// fails the test (cellAt would name a cell of another row, or a bit beyond the board).
inline Bitboard cellsAt(std::initializer_list<std::pair<int, int>> xy) {
  Bitboard b = 0;
  for (const auto& [x, y] : xy) {
    if (onBoardXY(x, y))
      b |= bit(cellAt(x, y));
    else
      ADD_FAILURE() << "(" << x << ", " << y << ") is not a cell of the board";
  }
  return b;
}

// The position after a line of moves ("2 0; 0 0; 3 1", as --moves takes it); a bad line fails the test.
inline Board boardAfterMoves(const std::string& moves) {
  Board b;
  std::string error;
  EXPECT_TRUE(playMoves(moves, b, error)) << moves << ": " << error;
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

// Waits until `condition()` holds, e.g. the file `path` contains `text` (a line a started program
// writes when it has made progress), or `seconds` have passed; whether it came. Tests wait for progress this way, never
// for a fixed time: a loaded or sanitised run may be many times slower than the usual one.
template <class Condition>
bool waitFor(Condition&& condition, double seconds = 120) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

inline bool waitForText(const std::string& path, const std::string& text, double seconds = 120) {
  return waitFor([&] { return readFile(path).find(text) != std::string::npos; }, seconds);
}

// The same wait in a shell command line: until `grep -q PATTERN PATH` succeeds, at most `seconds`.
inline std::string shellWaitForLine(const std::string& path, const std::string& grepPattern, int seconds = 120) {
  return "i=0; until grep -q '" + grepPattern + "' " + path + " 2>/dev/null || [ $i -ge " +
         std::to_string(seconds * 100) + " ]; do sleep 0.01; i=$((i+1)); done; ";
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
