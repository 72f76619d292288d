// Pondering: the search goes on in a second thread while the bot waits for the opponent's move,
// on the position its own answer left. The next turn's search finds its position one ply below
// that root and reuses the tree (search_tree.h), so the opponent's thinking time becomes ours
// wherever the platform lets a waiting process run. Where it does not (the process is stopped
// between turns), nothing is lost: the thread is stopped within one iteration of the next input.
//
// Invariant: the Search is used by one thread at a time. start() hands it to the pondering thread;
// stop() takes it back (the join orders every write of that thread before the caller's next use).
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

#include "board.h"
#include "search.h"

namespace yav {

class Ponderer {
 public:
  explicit Ponderer(Search& search) : search_(search) {}
  Ponderer(const Ponderer&) = delete;
  Ponderer& operator=(const Ponderer&) = delete;
  ~Ponderer() { stop(); }

  // Starts searching `position` (the opponent to move) in the background.
  void start(const Board& position, uint64_t seed) {
    stop();
    stop_.store(false);
    iterations_ = 0;
    thread_ = std::thread([this, position, seed] { iterations_ = search_.ponder(position, stop_, seed); });
  }

  // Stops the background search (if any) and returns the iterations it did.
  uint64_t stop() {
    if (!thread_.joinable()) return 0;
    stop_.store(true);
    thread_.join();
    return iterations_;
  }

 private:
  Search& search_;
  std::atomic<bool> stop_{false};
  uint64_t iterations_ = 0;  // written by the thread, read after the join
  std::thread thread_;
};

}  // namespace yav
