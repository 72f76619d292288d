// Match bookkeeping: results from bot A's point of view, per seat, per game pair (pentanomial),
// ending reasons, response times; and the end report as text and as JSON.
#pragma once

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tools/arena/json.h"
#include "tools/arena/openings.h"
#include "tools/arena/record.h"
#include "tools/arena/sprt.h"
#include "tools/arena/stats.h"

namespace yav::arena {

struct BotTimes {
  std::vector<double> firstTurns, laterTurns;  // ms
  int slow = 0;                                // answers later than the limit
};

struct MatchStats {
  int64_t wins = 0, draws = 0, losses = 0, aborted = 0;                         // of A
  int64_t seatWins[2] = {0, 0}, seatDraws[2] = {0, 0}, seatLosses[2] = {0, 0};  // by A's seat
  int64_t reasonLostBy[kReasons][2] = {};  // [reason][loser: 0 = A, 1 = B]; draws counted in [Draw][0]
  Pentanomial pairs = {0, 0, 0, 0, 0};
  std::map<int, int> pendingPairPoints;  // pair -> A's half-points of the one finished game so far
  BotTimes times[2];                     // A, B
  // Repeated games: the same moves with the same bots in the same seats as an earlier game. Two
  // deterministic bots replay the same games from the same start; Elo, LOS and SPRT would count
  // the copies as independent evidence.
  std::map<std::string, int> gameByMoves;    // seat of A + moves -> the first game played so
  std::vector<std::pair<int, int>> repeats;  // (game, the earlier game it repeats)

  int64_t games() const { return wins + draws + losses; }
  double score() const { return games() ? (wins + 0.5 * draws) / double(games()) : NAN; }

  void add(const GameRecord& r) {
    if (r.result.reason == Reason::Aborted) {
      ++aborted;
      return;
    }
    const int a = r.seatOfA;
    if (r.result.winnerSeat < 0) {
      ++draws, ++seatDraws[a];
      ++reasonLostBy[int(Reason::Draw)][0];
    } else if (r.result.winnerSeat == a) {
      ++wins, ++seatWins[a];
      ++reasonLostBy[int(r.result.reason)][1];
    } else {
      ++losses, ++seatLosses[a];
      ++reasonLostBy[int(r.result.reason)][0];
    }
    const int aHalfPoints = int(halfPoints(r.result.winnerSeat < 0 ? kDrawResult : r.result.winnerSeat, a));
    auto it = pendingPairPoints.find(r.pair);
    if (it == pendingPairPoints.end()) {
      pendingPairPoints[r.pair] = aHalfPoints;
    } else {
      ++pairs[size_t(it->second + aHalfPoints)];
      pendingPairPoints.erase(it);
    }
    const auto& moves = r.result.moves;
    std::string key(1, char('0' + a));
    for (const MoveRecord& mv : moves) key += char(mv.cell + 1);
    const auto earlier = gameByMoves.emplace(key, r.game);
    if (!earlier.second) repeats.push_back({r.game, earlier.first->second});
    bool seen[2] = {false, false};
    for (size_t i = size_t(r.result.openingPlies); i < moves.size(); ++i) {
      const int seat = int(i % 2);  // turns alternate (a steal is ply 1, then seat 0 moves again)
      const int bot = seat == a ? 0 : 1;
      if (moves[i].ms < 0) continue;
      (seen[seat] ? times[bot].laterTurns : times[bot].firstTurns).push_back(moves[i].ms);
      seen[seat] = true;
      if (moves[i].slow) ++times[bot].slow;
    }
  }

  EloEstimate elo() const { return eloEstimate(double(wins), double(draws), double(losses)); }
  NormalizedElo nelo() const { return normalizedElo(pairs, double(wins), double(draws), double(losses)); }
  // The repeat of `game`'s moves and seats: the earlier game's number, or -1.
  int repeatOf(int game) const {
    for (const auto& r : repeats)
      if (r.first == game) return r.second;
    return -1;
  }
  double los() const { return likelihoodOfSuperiority(double(wins), double(losses)); }
};

// "+12.3", "+inf"
inline std::string signedText(double v) {
  char buf[32];
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  std::snprintf(buf, sizeof buf, "%+.1f", v);
  return buf;
}
// "Elo +240.8 [-6.9, +487.3]": the estimate and its asymmetric 95% bounds.
inline std::string formatElo(const EloEstimate& e) {
  if (std::isnan(e.score)) return "Elo n/a";
  return "Elo " + signedText(e.elo) + " [" + signedText(e.low) + ", " + signedText(e.high) + "]";
}
// "nElo +35.2 +- 28.1", or "nElo n/a" while the scores do not vary.
inline std::string formatNormalizedElo(const NormalizedElo& e) {
  if (std::isnan(e.value)) return "nElo n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "nElo %+.1f +- %.1f", e.value, e.ci95);
  return buf;
}

struct TimeSummary {
  double firstMax = 0, max = 0, p99 = 0;
  int slow = 0;
  size_t turns = 0;
};
inline TimeSummary summarizeTimes(const BotTimes& t) {
  TimeSummary s;
  std::vector<double> later = t.laterTurns;
  std::sort(later.begin(), later.end());
  for (double v : t.firstTurns) s.firstMax = std::max(s.firstMax, v);
  s.max = later.empty() ? 0 : later.back();
  s.p99 = percentile(later, 99);
  s.slow = t.slow;
  s.turns = later.size() + t.firstTurns.size();
  return s;
}

// "Repeated games: 4 of 6 repeat an earlier game (same moves, same seats): 2 = 0, 3 = 1, ..."
inline std::string repeatsText(const MatchStats& m) {
  std::string text = "Repeated games: " + std::to_string(m.repeats.size()) + " of " + std::to_string(m.games());
  if (m.repeats.empty()) return text + "\n";
  text +=
      " repeat an earlier game (same moves, same seats; the statistics count them as independent, "
      "use openings):";
  for (size_t i = 0; i < m.repeats.size() && i < 10; ++i)
    text += (i ? ", " : " ") + std::to_string(m.repeats[i].first) + " = " + std::to_string(m.repeats[i].second);
  return text + (m.repeats.size() > 10 ? ", ...\n" : "\n");
}

struct MatchInfo {
  std::string nameA = "A", nameB = "B";
  std::string commandA, commandB;
  Limits limits;
  int gamesPlanned = 0;
  SprtConfig sprt;
  OpeningSettings openings;
  std::string recordFile;
  bool interrupted = false;
  double elapsedSeconds = 0;
};

inline std::string textReport(const MatchStats& m, const MatchInfo& info) {
  std::ostringstream o;
  char buf[512];
  const EloEstimate e = m.elo();
  o << "Match: A = " << info.nameA << " ('" << info.commandA << "')  vs  B = " << info.nameB << " ('" << info.commandB
    << "')\n";
  std::snprintf(buf, sizeof buf, "Limits: first turn %.0f ms, later %.0f ms, grace x%.2f\n", info.limits.firstTurnMs,
                info.limits.turnMs, info.limits.grace);
  o << buf;
  o << "Openings: " << info.openings.describe() << "\n";
  o << "Games: " << m.games() << " of " << info.gamesPlanned;
  if (m.aborted) o << " (" << m.aborted << " aborted, not counted)";
  if (info.interrupted) o << "  [INTERRUPTED]";
  o << "\n";
  std::snprintf(buf, sizeof buf, "A: W %lld  D %lld  L %lld   score %.3f   %s (95%%)   %s   LOS %.1f%%\n",
                (long long)m.wins, (long long)m.draws, (long long)m.losses, m.games() ? m.score() : 0.0,
                formatElo(e).c_str(), formatNormalizedElo(m.nelo()).c_str(), 100 * m.los());
  o << buf;
  o << repeatsText(m);
  for (int seat = 0; seat < 2; ++seat) {
    std::snprintf(buf, sizeof buf, "A moving %s: W %lld  D %lld  L %lld\n", seat == 0 ? "first " : "second",
                  (long long)m.seatWins[seat], (long long)m.seatDraws[seat], (long long)m.seatLosses[seat]);
    o << buf;
  }
  std::snprintf(buf, sizeof buf, "Pairs (A's points 0/0.5/1/1.5/2): %lld %lld %lld %lld %lld   pair-based %s\n",
                (long long)m.pairs[0], (long long)m.pairs[1], (long long)m.pairs[2], (long long)m.pairs[3],
                (long long)m.pairs[4], formatElo(pairEloEstimate(m.pairs)).c_str());
  o << buf;
  o << "Ending reasons (games lost by A / by B):\n";
  for (int r = 0; r < kReasons; ++r) {
    if (Reason(r) == Reason::Aborted) continue;
    if (Reason(r) == Reason::Draw) {
      std::snprintf(buf, sizeof buf, "  %-11s %lld\n", "draw", (long long)m.reasonLostBy[r][0]);
    } else {
      std::snprintf(buf, sizeof buf, "  %-11s %lld / %lld\n", reasonName(Reason(r)), (long long)m.reasonLostBy[r][0],
                    (long long)m.reasonLostBy[r][1]);
    }
    o << buf;
  }
  for (int bot = 0; bot < 2; ++bot) {
    TimeSummary t = summarizeTimes(m.times[bot]);
    std::snprintf(buf, sizeof buf,
                  "Times %c: later turns max %.1f ms, p99 %.1f ms; first turn max %.1f ms; slow answers %d of %zu\n",
                  bot ? 'B' : 'A', t.max, t.p99, t.firstMax, t.slow, t.turns);
    o << buf;
  }
  if (info.sprt.enabled) {
    SprtState s = sprtState(m.pairs, info.sprt);
    std::snprintf(buf, sizeof buf, "SPRT (%s) elo0 %.1f elo1 %.1f alpha %.3f beta %.3f: LLR %.3f [%.3f, %.3f] -> %s\n",
                  kSprtModel, info.sprt.elo0, info.sprt.elo1, info.sprt.alpha, info.sprt.beta, s.llr, s.lower, s.upper,
                  s.decision == SprtDecision::AcceptH1   ? "H1 accepted (A is stronger by about elo1)"
                  : s.decision == SprtDecision::AcceptH0 ? "H0 accepted (A is not stronger by elo1)"
                                                         : "no decision yet");
    o << buf;
  }
  if (!info.recordFile.empty()) o << "Games recorded in " << info.recordFile << "\n";
  return o.str();
}

inline std::string jsonReport(const MatchStats& m, const MatchInfo& info) {
  const EloEstimate e = m.elo();
  std::ostringstream o;
  using json::number;
  o << "{\n  \"games\": " << m.games() << ",\n  \"wins\": " << m.wins << ",\n  \"draws\": " << m.draws
    << ",\n  \"losses\": " << m.losses << ",\n  \"aborted\": " << m.aborted
    << ",\n  \"score\": " << number(m.score(), 4) << ",\n  \"elo\": " << number(e.elo, 2)
    << ",\n  \"elo_ci95\": " << number(e.ci95, 2) << ",\n  \"elo_low\": " << number(e.low, 2)
    << ",\n  \"elo_high\": " << number(e.high, 2) << ",\n  \"nelo\": " << number(m.nelo().value, 2)
    << ",\n  \"nelo_ci95\": " << number(m.nelo().ci95, 2) << ",\n  \"los\": " << number(m.los(), 4)
    << ",\n  \"games_planned\": " << info.gamesPlanned
    << ",\n  \"interrupted\": " << (info.interrupted ? "true" : "false")
    << ",\n  \"elapsed_s\": " << number(info.elapsedSeconds, 1) << ",\n  \"command_a\": " << json::quote(info.commandA)
    << ",\n  \"command_b\": " << json::quote(info.commandB) << ",\n  \"name_a\": " << json::quote(info.nameA)
    << ",\n  \"name_b\": " << json::quote(info.nameB)
    << ",\n  \"limits\": {\"first_turn_ms\": " << number(info.limits.firstTurnMs)
    << ", \"turn_ms\": " << number(info.limits.turnMs) << ", \"grace\": " << number(info.limits.grace) << "}";
  o << ",\n  \"openings\": " << openingsJson(info.openings);
  o << ",\n  \"per_seat\": {";
  for (int seat = 0; seat < 2; ++seat)
    o << (seat ? ", " : "") << (seat ? "\"a_second\"" : "\"a_first\"") << ": {\"wins\": " << m.seatWins[seat]
      << ", \"draws\": " << m.seatDraws[seat] << ", \"losses\": " << m.seatLosses[seat] << "}";
  const EloEstimate pe = pairEloEstimate(m.pairs);
  o << "},\n  \"pentanomial\": [" << m.pairs[0] << ", " << m.pairs[1] << ", " << m.pairs[2] << ", " << m.pairs[3]
    << ", " << m.pairs[4] << "],\n  \"pair_elo\": " << number(pe.elo, 2)
    << ", \"pair_elo_ci95\": " << number(pe.ci95, 2) << ", \"pair_elo_low\": " << number(pe.low, 2)
    << ", \"pair_elo_high\": " << number(pe.high, 2);
  o << ",\n  \"repeated_games\": " << m.repeats.size() << ", \"repeats\": [";
  for (size_t i = 0; i < m.repeats.size(); ++i)
    o << (i ? ", " : "") << "{\"game\": " << m.repeats[i].first << ", \"same_as\": " << m.repeats[i].second << "}";
  o << "]";
  o << ",\n  \"reasons\": {";
  bool firstReason = true;
  for (int r = 0; r < kReasons; ++r) {
    if (Reason(r) == Reason::Aborted) continue;
    o << (firstReason ? "" : ", ") << json::quote(reasonName(Reason(r)));
    if (Reason(r) == Reason::Draw)
      o << ": " << m.reasonLostBy[r][0];
    else
      o << ": {\"lost_by_a\": " << m.reasonLostBy[r][0] << ", \"lost_by_b\": " << m.reasonLostBy[r][1] << "}";
    firstReason = false;
  }
  o << "},\n  \"times\": {";
  for (int bot = 0; bot < 2; ++bot) {
    TimeSummary t = summarizeTimes(m.times[bot]);
    o << (bot ? ", " : "") << (bot ? "\"b\"" : "\"a\"") << ": {\"max_ms\": " << number(t.max, 2)
      << ", \"p99_ms\": " << number(t.p99, 2) << ", \"first_turn_max_ms\": " << number(t.firstMax, 2)
      << ", \"slow\": " << t.slow << ", \"turns\": " << t.turns << "}";
  }
  o << "}";
  if (info.sprt.enabled) {
    SprtState s = sprtState(m.pairs, info.sprt);
    o << ",\n  \"sprt\": {\"model\": \"pentanomial GSPRT\", \"elo_model\": \"logistic\", \"elo0\": "
      << number(info.sprt.elo0) << ", \"elo1\": " << number(info.sprt.elo1)
      << ", \"alpha\": " << number(info.sprt.alpha, 4) << ", \"beta\": " << number(info.sprt.beta, 4)
      << ", \"llr\": " << number(s.llr, 4) << ", \"lower\": " << number(s.lower, 4)
      << ", \"upper\": " << number(s.upper, 4) << ", \"decision\": " << json::quote(sprtDecisionName(s.decision))
      << "}";
  }
  o << ",\n  \"record_file\": " << json::quote(info.recordFile) << "\n}\n";
  return o.str();
}

}  // namespace yav::arena
