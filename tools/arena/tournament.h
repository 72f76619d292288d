// Tournaments: several bots, a match (pairs of games, seats swapped) for each pairing. The end
// report is a cross table of scores with 95% (Wilson) intervals and a rating list: maximum-likelihood
// Bradley-Terry ratings on the logistic Elo scale, anchored on the first bot (0), with 95% error
// bars from the observed Fisher information.
//
// Model: bot i scores p = L(r_i - r_j) = 1 / (1 + 10^((r_j - r_i)/400)) per game against bot j;
// a draw counts as half a win and half a loss. Each pairing also gets one virtual draw (a weak
// prior), so that a bot winning every game still has a finite rating; it pulls ratings slightly
// together, a little for a few games, negligibly for many.
// The error bars treat games as independent (the pairs' shared openings are ignored), so they
// are slightly too wide when openings decide much and too narrow when they don't.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "tools/arena/json.h"
#include "tools/arena/match.h"
#include "tools/arena/setup.h"

namespace yav::arena {

// Games and points of one pairing, for the first-named bot.
struct PairingScore {
  int a = 0, b = 0;  // bot indices
  double games = 0, points = 0;
};

struct Rating {
  double elo = 0, ci95 = 0;  // ci95: half width; 0 for the anchor
};

// Maximum-likelihood ratings (Newton's method on the concave log-likelihood) for `bots` bots;
// bot 0 is fixed at 0. Bots without any game keep 0 with an infinite interval.
inline std::vector<Rating> bradleyTerry(int bots, const std::vector<PairingScore>& scores) {
  const double c = std::log(10.0) / 400;  // d/dr of the logistic in Elo units: c p (1 - p)
  std::vector<double> r(size_t(bots), 0.0);
  std::vector<double> played(size_t(bots), 0.0);
  for (const auto& s : scores) played[size_t(s.a)] += s.games, played[size_t(s.b)] += s.games;
  const int n = bots - 1;                        // free parameters r_1 .. r_{bots-1}
  std::vector<std::vector<double>> information;  // minus the Hessian of the free parameters
  auto evaluate = [&](std::vector<double>& gradient) {
    gradient.assign(size_t(n), 0.0);
    information.assign(size_t(n), std::vector<double>(size_t(n), 0.0));
    for (const auto& s : scores) {
      const double games = s.games + 1, points = s.points + 0.5;  // + one virtual draw
      const double p = 1 / (1 + std::pow(10.0, (r[size_t(s.b)] - r[size_t(s.a)]) / 400));
      const double g = c * (points - games * p), w = c * c * games * p * (1 - p);
      const int i = s.a - 1, j = s.b - 1;  // -1: the anchor
      if (i >= 0) gradient[size_t(i)] += g, information[size_t(i)][size_t(i)] += w;
      if (j >= 0) gradient[size_t(j)] -= g, information[size_t(j)][size_t(j)] += w;
      if (i >= 0 && j >= 0) information[size_t(i)][size_t(j)] -= w, information[size_t(j)][size_t(i)] -= w;
    }
    for (int i = 0; i < n; ++i)
      if (played[size_t(i + 1)] == 0) information[size_t(i)][size_t(i)] = 1;  // no game: stays 0
  };
  // Solves information * x = rhs by Gauss-Jordan elimination (n is the number of bots).
  auto solve = [&](std::vector<double> rhs, int column) {
    std::vector<std::vector<double>> m = information;
    if (column >= 0) rhs.assign(size_t(n), 0.0), rhs[size_t(column)] = 1;
    for (int k = 0; k < n; ++k) {
      int pivot = k;
      for (int i = k + 1; i < n; ++i)
        if (std::fabs(m[size_t(i)][size_t(k)]) > std::fabs(m[size_t(pivot)][size_t(k)])) pivot = i;
      std::swap(m[size_t(k)], m[size_t(pivot)]), std::swap(rhs[size_t(k)], rhs[size_t(pivot)]);
      if (std::fabs(m[size_t(k)][size_t(k)]) < 1e-300) return std::vector<double>(size_t(n), NAN);
      for (int i = 0; i < n; ++i) {
        if (i == k) continue;
        const double f = m[size_t(i)][size_t(k)] / m[size_t(k)][size_t(k)];
        for (int j = k; j < n; ++j) m[size_t(i)][size_t(j)] -= f * m[size_t(k)][size_t(j)];
        rhs[size_t(i)] -= f * rhs[size_t(k)];
      }
    }
    for (int i = 0; i < n; ++i) rhs[size_t(i)] /= m[size_t(i)][size_t(i)];
    return rhs;
  };
  std::vector<double> gradient;
  for (int iteration = 0; iteration < 100; ++iteration) {
    evaluate(gradient);
    const std::vector<double> step = solve(gradient, -1);
    double largest = 0;
    for (int i = 0; i < n; ++i) {
      const double s = std::max(-400.0, std::min(400.0, step[size_t(i)]));  // damped far from the optimum
      r[size_t(i + 1)] += s;
      largest = std::max(largest, std::fabs(s));
    }
    if (!(largest > 1e-9)) break;
  }
  evaluate(gradient);
  std::vector<Rating> ratings(static_cast<size_t>(bots));
  for (int i = 0; i < n; ++i) {
    ratings[size_t(i + 1)].elo = r[size_t(i + 1)];
    const double variance = solve({}, i)[size_t(i)];
    ratings[size_t(i + 1)].ci95 = played[size_t(i + 1)] > 0 ? kZ95 * std::sqrt(variance) : INFINITY;
  }
  return ratings;
}

// 95% interval of a pairing's score (stats.h).
inline ScoreInterval scoreInterval(const MatchStats& m) { return wilsonInterval(m.score(), double(m.games())); }

struct TournamentInfo {
  SetUp setUp;
  std::vector<std::pair<int, int>> pairings;  // (A, B) bot indices, parallel to the stats
  std::string recordFile;
  bool interrupted = false;
  double elapsedSeconds = 0;
};

inline std::vector<PairingScore> pairingScores(const std::vector<MatchStats>& stats, const TournamentInfo& t) {
  std::vector<PairingScore> scores;
  for (size_t p = 0; p < stats.size(); ++p)
    scores.push_back(
        {t.pairings[p].first, t.pairings[p].second, double(stats[p].games()), stats[p].wins + 0.5 * stats[p].draws});
  return scores;
}

// Per bot: games, points, and losses that were not lost on the board.
struct BotTotals {
  int64_t games = 0;
  double points = 0;
  int64_t timeouts = 0, illegal = 0, badOutput = 0, crashes = 0, slow = 0;
};
inline std::vector<BotTotals> botTotals(const std::vector<MatchStats>& stats, const TournamentInfo& t) {
  std::vector<BotTotals> totals(t.setUp.bots.size());
  for (size_t p = 0; p < stats.size(); ++p) {
    const MatchStats& m = stats[p];
    const int side[2] = {t.pairings[p].first, t.pairings[p].second};
    for (int k = 0; k < 2; ++k) {
      BotTotals& b = totals[size_t(side[k])];
      b.games += m.games();
      b.points += k == 0 ? m.wins + 0.5 * m.draws : m.losses + 0.5 * m.draws;
      b.timeouts += m.reasonLostBy[int(Reason::Timeout)][k];
      b.illegal += m.reasonLostBy[int(Reason::Illegal)][k];
      b.badOutput += m.reasonLostBy[int(Reason::BadOutput)][k];
      b.crashes += m.reasonLostBy[int(Reason::Crash)][k];
      b.slow += m.times[k].slow;
    }
  }
  return totals;
}

// Score of bot `row` against bot `column` in percent with its 95% interval ("62 [41-80]"), or ""
// when they did not meet.
inline std::string crossCell(const std::vector<MatchStats>& stats, const TournamentInfo& t, int row, int column) {
  for (size_t p = 0; p < stats.size(); ++p) {
    const bool forward = t.pairings[p].first == row && t.pairings[p].second == column;
    const bool backward = t.pairings[p].first == column && t.pairings[p].second == row;
    if (!forward && !backward) continue;
    if (stats[p].games() == 0) return "-";
    const ScoreInterval ci = scoreInterval(stats[p]);
    const double s = forward ? stats[p].score() : 1 - stats[p].score();
    const double low = forward ? ci.low : 1 - ci.high, high = forward ? ci.high : 1 - ci.low;
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.0f [%.0f-%.0f]", 100 * s, 100 * low, 100 * high);
    return buf;
  }
  return "";
}

inline std::string tournamentTextReport(const std::vector<MatchStats>& stats, const TournamentInfo& t) {
  const auto& bots = t.setUp.bots;
  const int n = int(bots.size());
  std::ostringstream o;
  char buf[512];
  int64_t games = 0, aborted = 0;
  for (const auto& m : stats) games += m.games(), aborted += m.aborted;
  o << "Tournament (" << t.setUp.mode << "): " << n << " bots, " << stats.size() << " pairings, " << games << " games";
  if (aborted) o << " (" << aborted << " aborted, not counted)";
  if (t.interrupted) o << "  [INTERRUPTED]";
  o << "\n";
  for (const auto& b : bots) o << "  " << b.name << " = '" << b.command << "'\n";
  std::snprintf(buf, sizeof buf, "Limits: first turn %.0f ms, later %.0f ms, grace x%.2f\n", t.setUp.limits.firstTurnMs,
                t.setUp.limits.turnMs, t.setUp.limits.grace);
  o << buf << "Openings: " << t.setUp.openings.describe() << "\n";

  size_t width = 14, nameWidth = 4;  // a cell: " 100 [61-100]"
  for (const auto& b : bots) nameWidth = std::max(nameWidth, b.name.size()), width = std::max(width, b.name.size() + 2);
  o << "\nCross table: the row bot's score in % against the column bot [95% interval]\n";
  o << std::string(nameWidth + 2, ' ');
  for (const auto& b : bots) o << std::string(width - b.name.size(), ' ') << b.name;
  o << "\n";
  for (int i = 0; i < n; ++i) {
    o << bots[size_t(i)].name << std::string(nameWidth + 2 - bots[size_t(i)].name.size(), ' ');
    for (int j = 0; j < n; ++j) {
      const std::string cell = i == j ? "." : crossCell(stats, t, i, j);
      o << std::string(width - std::min(width, cell.size()), ' ') << cell;
    }
    o << "\n";
  }

  const std::vector<Rating> ratings = bradleyTerry(n, pairingScores(stats, t));
  const std::vector<BotTotals> totals = botTotals(stats, t);
  std::vector<int> order(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) order[size_t(i)] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return ratings[size_t(x)].elo > ratings[size_t(y)].elo; });
  o << "\nRatings (maximum-likelihood Bradley-Terry, logistic Elo, " << bots[0].name << " = 0, +- 95%):\n";
  std::snprintf(buf, sizeof buf, "%4s  %-*s %8s %8s %7s %7s   %s\n", "rank", int(nameWidth), "bot", "Elo", "+-95%",
                "games", "score", "lost by timeout/illegal/bad output/crash, slow answers");
  o << buf;
  for (size_t k = 0; k < order.size(); ++k) {
    const int i = order[k];
    const Rating& r = ratings[size_t(i)];
    const BotTotals& b = totals[size_t(i)];
    std::snprintf(buf, sizeof buf, "%4zu  %-*s %+8.1f %8s %7lld %6.1f%%   %lld/%lld/%lld/%lld, %lld\n", k + 1,
                  int(nameWidth), bots[size_t(i)].name.c_str(), r.elo,
                  i == 0                  ? "anchor"
                  : std::isfinite(r.ci95) ? json::number(r.ci95, 1).c_str()
                                          : "inf",
                  (long long)b.games, b.games ? 100 * b.points / double(b.games) : 0.0, (long long)b.timeouts,
                  (long long)b.illegal, (long long)b.badOutput, (long long)b.crashes, (long long)b.slow);
    o << buf;
  }
  if (!t.recordFile.empty()) o << "Games recorded in " << t.recordFile << "\n";
  return o.str();
}

inline std::string tournamentJsonReport(const std::vector<MatchStats>& stats, const TournamentInfo& t) {
  using json::number;
  using json::quote;
  const auto& bots = t.setUp.bots;
  const std::vector<Rating> ratings = bradleyTerry(int(bots.size()), pairingScores(stats, t));
  const std::vector<BotTotals> totals = botTotals(stats, t);
  std::ostringstream o;
  o << "{\n  \"mode\": " << quote(t.setUp.mode) << ",\n  \"games_per_pairing\": " << t.setUp.gamesPerPairing
    << ",\n  \"interrupted\": " << (t.interrupted ? "true" : "false")
    << ",\n  \"elapsed_s\": " << number(t.elapsedSeconds, 1)
    << ",\n  \"limits\": {\"first_turn_ms\": " << number(t.setUp.limits.firstTurnMs)
    << ", \"turn_ms\": " << number(t.setUp.limits.turnMs) << ", \"grace\": " << number(t.setUp.limits.grace) << "}"
    << ",\n  \"openings\": " << openingsJson(t.setUp.openings) << ",\n  \"bots\": [";
  for (size_t i = 0; i < bots.size(); ++i) {
    const BotTotals& b = totals[i];
    o << (i ? "," : "") << "\n    {\"name\": " << quote(bots[i].name) << ", \"command\": " << quote(bots[i].command)
      << ", \"elo\": " << number(ratings[i].elo, 2) << ", \"elo_ci95\": " << number(i == 0 ? 0.0 : ratings[i].ci95, 2)
      << ", \"games\": " << b.games << ", \"points\": " << number(b.points, 1)
      << ", \"lost_by\": {\"timeout\": " << b.timeouts << ", \"illegal\": " << b.illegal
      << ", \"bad_output\": " << b.badOutput << ", \"crash\": " << b.crashes << "}, \"slow\": " << b.slow << "}";
  }
  o << "\n  ],\n  \"pairings\": [";
  for (size_t p = 0; p < stats.size(); ++p) {
    const MatchStats& m = stats[p];
    const EloEstimate e = m.elo();
    o << (p ? "," : "") << "\n    {\"a\": " << quote(bots[size_t(t.pairings[p].first)].name)
      << ", \"b\": " << quote(bots[size_t(t.pairings[p].second)].name) << ", \"games\": " << m.games()
      << ", \"wins\": " << m.wins << ", \"draws\": " << m.draws << ", \"losses\": " << m.losses
      << ", \"score\": " << number(m.score(), 4) << ", \"score_low\": " << number(scoreInterval(m).low, 4)
      << ", \"score_high\": " << number(scoreInterval(m).high, 4) << ", \"elo\": " << number(e.elo, 2)
      << ", \"elo_ci95\": " << number(e.ci95, 2) << ", \"pentanomial\": [" << m.pairs[0] << ", " << m.pairs[1] << ", "
      << m.pairs[2] << ", " << m.pairs[3] << ", " << m.pairs[4] << "]}";
  }
  o << "\n  ],\n  \"record_file\": " << quote(t.recordFile) << "\n}\n";
  return o.str();
}

}  // namespace yav::arena
