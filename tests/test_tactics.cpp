// The tactics tool end to end: a suite file is read (a malformed line is an error naming the file
// and line), an attack position the bot must win is solved, and the counts are printed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "board.h"

namespace {

std::string run(const std::string& args, int& status) {
  const std::string cmd = std::string(YAVALATH_BIN_DIR) + "/tactics " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buffer[512];
  while (p && fgets(buffer, sizeof buffer, p)) out += buffer;
  status = p ? pclose(p) : -1;
  return out;
}

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "tactics-" + std::to_string(getpid()) + "-" + name;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
  return buf;
}

TEST(Tactics, RunsASuiteAndRejectsAMalformedLine) {
  using namespace yav;
  // Player 0 to move: (3,4) threatens (1,4) and the only block makes player 1's vertical 3.
  const Bitboard p0 = bit(cellAt(0, 4)) | bit(cellAt(2, 4)), p1 = bit(cellAt(1, 3)) | bit(cellAt(0, 5));
  const std::string suite = tempPath("suite.txt");
  std::ofstream(suite) << "# kind stones0 stones1 toMove move pliesToEnd\n"
                       << "attack " << hex(p0) << " " << hex(p1) << " 0 " << cellAt(3, 4) << " 3\n";
  int status = 0;
  std::string out = run("run --suite " + suite + " --time-ms 20 --prove-iterations 20000", status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("attack     1/  1 = 100.0%"), std::string::npos) << out;

  std::ofstream(suite, std::ios::app) << "defence 12 34 0\n";
  out = run("run --suite " + suite + " --time-ms 20", status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find(suite + ":3: malformed suite line"), std::string::npos) << out;
  std::remove(suite.c_str());
}

}  // namespace
