// The book database as training samples: every deep-search verdict gives its position (labelled
// by the value of the move the search chose, or by a proof) and, for every move the search visited
// enough, the position after it (labelled by the move's value seen from the other side); every
// proven position of the database gives a 1 or a 0.
#pragma once

#include <algorithm>
#include <string>

#include "tools/book/database.h"
#include "tools/train/samples.h"

namespace yav::train {

struct BookSampleOptions {
  uint32_t minChildVisits = 300;  // a move's value below this many visits is too noisy to learn from
  double childVisitsHalf = 2000;  // a child's weight is visits / (visits + this)
};

// The side to move's value of a verdict's position: a proven win if one move wins, a proven loss
// if every legal move is proven lost, else the value of the most visited move.
inline bool verdictValue(const book::DeepVerdict& v, size_t legalClasses, float& value, bool& proven) {
  const book::DeepMove* most = nullptr;
  size_t lost = 0;
  for (const book::DeepMove& m : v.moves) {
    if (m.proof == Proof::Win) return value = 1, proven = true;
    lost += m.proof == Proof::Loss;
    if (!most || m.visits > most->visits) most = &m;
  }
  if (lost == legalClasses && lost > 0) return value = 0, proven = true;
  if (!most || most->visits == 0) return false;
  value = most->value, proven = false;
  return true;
}

inline void addBookSamples(const book::Database& db, const BookSampleOptions& opt, SampleSet& out, size_t& verdicts) {
  verdicts = 0;
  for (const auto& [engine, entries] : db.verdicts())
    for (const auto& [key, verdict] : entries) {
      ++verdicts;
      const Board b = book::boardOf(key);
      float value = 0.5f;
      bool proven = false;
      if (verdictValue(verdict, moveClasses(b).size(), value, proven))
        out.add({key, value, 1.0f, proven ? Source::Proof : Source::Book});
      for (const book::DeepMove& m : verdict.moves) {
        if (m.proof == Proof::Unknown && m.visits < opt.minChildVisits) continue;
        if (!b.isLegal(m.move)) continue;
        Board child = b;
        if (child.play(m.move) != Outcome::None) continue;  // the game ends: nothing to evaluate
        const PositionKey ck = PositionKey::of(child);
        if (m.proof != Proof::Unknown) {
          out.add({ck, m.proof == Proof::Win ? 0.0f : 1.0f, 1.0f, Source::Proof});
          continue;
        }
        out.add({ck, 1 - m.value, float(m.visits / (m.visits + opt.childVisitsHalf)), Source::Child});
      }
    }
  for (const auto& [key, stats] : db.map())
    if (stats.proof == Proof::Win || stats.proof == Proof::Loss)
      out.add({key, stats.proof == Proof::Win ? 1.0f : 0.0f, 1.0f, Source::Proof});
}

}  // namespace yav::train
