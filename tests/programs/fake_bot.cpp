// A scriptable misbehaving bot for the arena tests. Plays legal moves until its own turn `--turn N`
// (1-based, default 1), then does what MODE says:
//   legal         keep playing legal moves (random among those that do not lose at once; --seed S)
//   first         always the first empty cell in reading order (may lose quickly)
//   timeout       never answer (sleeps)           slow       answer after --ms MS (default 120)
//   crash         abort() (SIGABRT)                exit       exit(3) without answering
//   garbage       print "hello"                    space      print " x y" (leading space)
//   double_space  print "x  y"                     message    print "x y some message/here"
//   offboard      print "9 9"                      occupied   play an occupied cell
//   steal         steal when allowed (then legal)  orphan     start a background 'sleep' child, then hang
//   busy_after    answer legally at once, then sleep --ms MS before reading on (the work a
//                 pondering bot does after its answer, on the opponent's time)
// --seat N misbehaves only in games where the bot plays first (1) or second (2): default both.
// --log FILE appends every byte of input the bot received (to check the referee's protocol).
// --pidfile FILE writes the pids of the bot (and of the orphan child) for the no-orphan test.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <streambuf>
#include <string>
#include <thread>

#include "protocol.h"
#include "rng.h"

namespace {

// Copies everything read from `source` into `log`.
class TeeBuf : public std::streambuf {
 public:
  TeeBuf(std::streambuf* source, std::ostream* log) : source_(source), log_(log) {}

 protected:
  int_type underflow() override {
    int_type c = source_->sgetc();
    return c;
  }
  int_type uflow() override {
    int_type c = source_->sbumpc();
    if (c != traits_type::eof() && log_) log_->put(char(c)), log_->flush();
    return c;
  }

 private:
  std::streambuf* source_;
  std::ostream* log_;
};

yav::Cell legalMove(const yav::Board& b, yav::Rng& rng) {
  const int me = b.toMove();
  yav::Bitboard win = b.winningCells(me);
  if (win) return yav::lowestCell(win);
  yav::Bitboard safe = b.empty() & ~b.losingCells(me);
  yav::Bitboard pool = safe ? safe : b.empty();
  return yav::nthCell(pool, int(rng.below(uint32_t(yav::popcount(pool)))));
}

void sleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: fake_bot MODE [--turn N] [--seat N] [--ms MS] [--seed S] [--log FILE] [--pidfile FILE]\n";
    return 2;
  }
  std::string mode = argv[1], logPath, pidPath;
  int misbehaveTurn = 1, ms = 120, misbehaveSeat = 0;
  uint64_t seed = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string a = argv[i], v = argv[i + 1];
    if (a == "--turn")
      misbehaveTurn = std::atoi(v.c_str());
    else if (a == "--seat")
      misbehaveSeat = std::atoi(v.c_str());
    else if (a == "--ms")
      ms = std::atoi(v.c_str());
    else if (a == "--seed")
      seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (a == "--log")
      logPath = v;
    else if (a == "--pidfile")
      pidPath = v;
    else {
      std::cerr << "fake_bot: unknown option " << a << "\n";
      return 2;
    }
  }
  std::ofstream log;
  if (!logPath.empty()) log.open(logPath, std::ios::app);
  TeeBuf tee(std::cin.rdbuf(), logPath.empty() ? nullptr : &log);
  std::istream in(&tee);
  yav::ProtocolReader reader(in);
  yav::TurnInput turn;
  yav::Rng rng(seed);
  if (!pidPath.empty()) std::ofstream(pidPath, std::ios::app) << getpid() << "\n";
  int seat = 0;  // 1 or 2, from the stones of the bot's first turn
  for (int myTurn = 1; reader.read(turn); ++myTurn) {
    std::cerr << "fake_bot " << mode << " turn " << myTurn << "\n";  // for the --stderr-dir test
    const yav::Board& b = turn.board;
    yav::Cell move = legalMove(b, rng);
    if (myTurn == 1) seat = b.stoneCount() == 0 ? 1 : 2;
    const bool now = myTurn >= misbehaveTurn && (misbehaveSeat == 0 || misbehaveSeat == seat);
    if (mode == "first") move = yav::lowestCell(b.empty());
    if (now) {
      if (mode == "timeout")
        for (;;) sleepMs(1000);
      if (mode == "crash") std::abort();
      if (mode == "exit") std::exit(3);
      if (mode == "slow") sleepMs(ms);
      if (mode == "orphan") {
        pid_t child = fork();
        if (child == 0) {
          execlp("sleep", "sleep", "30", static_cast<char*>(nullptr));
          _exit(127);
        }
        if (!pidPath.empty()) std::ofstream(pidPath, std::ios::app) << child << "\n";
        for (;;) sleepMs(1000);
      }
      const std::string x = std::to_string(yav::geometry().x[move]), y = std::to_string(yav::geometry().y[move]);
      if (mode == "garbage") {
        std::cout << "hello" << std::endl;
        continue;
      }
      if (mode == "space") {
        std::cout << " " << x << " " << y << std::endl;
        continue;
      }
      if (mode == "double_space") {
        std::cout << x << "  " << y << std::endl;
        continue;
      }
      if (mode == "message") {
        std::cout << x << " " << y << " some message/here" << std::endl;
        continue;
      }
      if (mode == "offboard") {
        std::cout << "9 9" << std::endl;
        continue;
      }
      if (mode == "occupied") {
        yav::Bitboard taken = b.occupied() & ~(b.canSteal() ? b.stones(0) : 0);
        if (taken) move = yav::lowestCell(taken);
      }
      if (mode == "steal" && b.canSteal()) move = b.stealCell();
    }
    std::cout << yav::formatMove(move) << std::endl;
    if (now && mode == "busy_after") sleepMs(ms);
  }
  return 0;
}
