// prior_train: fits the move prior (src/move_prior.h) to the book database's deep searches and
// writes its weights as a header (book/move_prior.h).
//
// Each searched position (its sensible moves: the rules' wins and forced blocks are left out, as
// the search never chooses there) gives a target distribution, the deep search's visits of its
// moves; the prior's softmax over the same moves is fitted to it by full-batch Adam on the cross
// entropy. A share of the positions (by key hash) is held out and only scored.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <unordered_set>
#include <vector>

#include "move_prior.h"
#include "rule_moves.h"
#include "tools/book/database.h"
#include "tools/book/db_file.h"
#include "tools/cli.h"

using namespace yav;

namespace {

const char* const kUsage =
    "usage: prior_train [--db FILE] [--out FILE] [options]\n"
    "fits the move prior to the deep searches' visits in the book database and writes its weights.\n";

// One position: its moves' feature rows (three parameter ids each) and target shares.
struct Sample {
  uint32_t first, count;  // rows [first, first + count) of Data::rows / targets
  uint8_t best;           // the most visited move (row offset)
  bool heldOut;
};

struct Data {
  std::vector<Sample> samples;
  std::vector<uint16_t> rows;  // 3 parameter ids per move
  std::vector<float> targets;
};

struct Fit {
  double loss = 0, bestShare = 0;  // cross entropy per position, share of positions whose argmax is the best move
  double uniformLoss = 0;          // the cross entropy of the uniform prior, for scale
  size_t positions = 0;
};

Fit score(const Data& d, const std::vector<float>& theta, bool heldOut, std::vector<double>* grad) {
  Fit f;
  std::vector<double> z;
  for (const Sample& s : d.samples) {
    if (s.heldOut != heldOut) continue;
    z.assign(s.count, 0.0);
    double top = -1e300;
    uint32_t arg = 0;
    for (uint32_t m = 0; m < s.count; ++m) {
      const uint16_t* r = &d.rows[3 * (s.first + m)];
      z[m] = double(theta[r[0]]) + theta[r[1]] + theta[r[2]];
      if (z[m] > top) top = z[m], arg = m;
    }
    double sum = 0;
    for (double& v : z) sum += (v = std::exp(v - top));
    const double logSum = std::log(sum);
    for (uint32_t m = 0; m < s.count; ++m) {
      const double t = d.targets[s.first + m];
      const double q = z[m] / sum;
      if (t > 0) f.loss -= t * (std::log(z[m]) - logSum);
      if (grad) {
        const uint16_t* r = &d.rows[3 * (s.first + m)];
        for (int k = 0; k < 3; ++k) (*grad)[r[k]] += q - t;
      }
    }
    f.uniformLoss += std::log(double(s.count));
    f.bestShare += arg == s.best;
    ++f.positions;
  }
  if (f.positions) f.loss /= double(f.positions), f.uniformLoss /= double(f.positions), f.bestShare /= double(f.positions);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dbPath = "book/book.db", outPath = "book/move_prior.h";
  int epochs = 400;
  double rate = 0.05, l2 = 1e-4, heldOut = 0.1, temper = 1.0;
  cli::Flags flags("prior_train");
  flags.text("--db", "FILE", dbPath, "the database", dbPath)
      .text("--out", "FILE", outPath, "the header to write", outPath)
      .integer("--epochs", "N", epochs, 1, 100000, "full-batch Adam steps")
      .number("--rate", "R", rate, 1e-6, 10, "Adam's step size")
      .number("--l2", "L", l2, 0, 10, "weight decay per parameter, per position")
      .number("--held-out", "P", heldOut, 0, 0.9, "share of positions only scored, never fitted")
      .number("--temper", "T", temper, 0.05, 4, "targets are visits^T, normalised");
  flags.parseOrExit(argc, argv, 1, kUsage);

  book::Database db;
  std::string error;
  if (!book::loadDatabase(dbPath, db, error)) {
    std::cerr << "prior_train: " << error << "\n";
    return 1;
  }

  // Parameter ids: one per canonical pattern; a pattern and its mirror share one.
  uint16_t canon[kPriorPatterns];
  const int params = priorCanonicalPatterns(canon);
  std::vector<uint16_t> paramOf(kPriorPatterns, 0);
  for (int i = 0; i < params; ++i) paramOf[canon[i]] = paramOf[kPriorTables.mirror[canon[i]]] = uint16_t(i);

  Data d;
  std::unordered_set<uint64_t> seen;
  for (const auto& [engineKey, verdicts] : db.verdicts())
    for (const auto& [key, verdict] : verdicts) {
      const Board b = book::boardOf(key);
      if (!seen.insert(b.hash()).second || b.canSteal()) continue;
      const RuleMoves r = ruleMoves(b);
      if (r.won() || r.mustBlock() || popcount(r.sensible) < 2) continue;
      Sample s{uint32_t(d.targets.size()), 0, 0, mix64(b.hash() ^ 0x5eedull) % 1000 < heldOut * 1000};
      double total = 0, top = -1;
      for (Bitboard m = r.sensible; m;) {
        const Cell c = popLowest(m);
        const book::DeepMove* dm = verdict.find(c);
        const double w = dm && dm->visits ? std::pow(double(dm->visits), temper) : 0.0;
        if (w > top) top = w, s.best = uint8_t(s.count);
        for (int k = 0; k < kAxes; ++k) d.rows.push_back(paramOf[priorPattern(b, b.toMove(), c, k)]);
        d.targets.push_back(float(w));
        total += w;
        ++s.count;
      }
      if (total <= 0) {
        d.rows.resize(3 * size_t(s.first)), d.targets.resize(s.first);
        continue;
      }
      for (uint32_t m = 0; m < s.count; ++m) d.targets[s.first + m] = float(d.targets[s.first + m] / total);
      d.samples.push_back(s);
    }
  size_t fitted = 0;
  for (const Sample& s : d.samples) fitted += !s.heldOut;
  std::cerr << "prior_train: " << d.samples.size() << " positions (" << d.samples.size() - fitted << " held out), "
            << d.targets.size() << " moves, " << params << " weights\n";
  if (!fitted) {
    std::cerr << "prior_train: no searched positions to fit in " << dbPath << "\n";
    return 1;
  }

  std::vector<float> theta(size_t(params), 0.0f);
  std::vector<double> m1(size_t(params), 0.0), m2(size_t(params), 0.0), grad;
  const double b1 = 0.9, b2 = 0.999;
  for (int e = 1; e <= epochs; ++e) {
    grad.assign(size_t(params), 0.0);
    const Fit train = score(d, theta, false, &grad);
    for (int i = 0; i < params; ++i) {
      const double g = grad[size_t(i)] / double(fitted) + l2 * theta[size_t(i)];
      m1[size_t(i)] = b1 * m1[size_t(i)] + (1 - b1) * g;
      m2[size_t(i)] = b2 * m2[size_t(i)] + (1 - b2) * g * g;
      const double mh = m1[size_t(i)] / (1 - std::pow(b1, e)), vh = m2[size_t(i)] / (1 - std::pow(b2, e));
      theta[size_t(i)] = float(theta[size_t(i)] - rate * mh / (std::sqrt(vh) + 1e-8));
    }
    if (e == 1 || e % 50 == 0 || e == epochs) {
      const Fit held = score(d, theta, true, nullptr);
      std::fprintf(stderr, "epoch %5d  fitted: loss %.4f (uniform %.4f) best %.3f   held out: loss %.4f (uniform %.4f) best %.3f\n",
                   e, train.loss, train.uniformLoss, train.bestShare, held.loss, held.uniformLoss, held.bestShare);
    }
  }

  // Quantise: 63 levels around 0, the step set by the largest weight.
  float largest = 0;
  for (float w : theta) largest = std::max(largest, std::fabs(w));
  const float step = largest > 0 ? largest / 31.0f : 1.0f;
  char stepText[32];
  std::snprintf(stepText, sizeof stepText, "%.6g", double(step));
  std::string text = std::string(stepText) + ":";
  for (float w : theta) text += MovePrior::kDigits[std::clamp(int(std::lround(w / step)) + 32, 1, 63)];
  MovePrior check;
  if (!check.decode(text.c_str())) {
    std::cerr << "prior_train: the weights' text does not decode (a bug)\n";
    return 1;
  }
  std::vector<float> quantised(static_cast<size_t>(params));
  for (int i = 0; i < params; ++i) quantised[size_t(i)] = check.weight[canon[i]];
  const Fit held = score(d, quantised, true, nullptr);
  std::fprintf(stderr, "quantised (step %s): held out loss %.4f best %.3f\n", stepText, held.loss, held.bestShare);

  std::ofstream out(outPath);
  out << "// Generated by build/bin/prior_train; do not edit (see src/move_prior.h).\n"
      << "// " << d.samples.size() << " searched positions, held-out cross entropy " << held.loss << " (uniform "
      << held.uniformLoss << ")\n"
      << "#pragma once\n\ninline const char* const kMovePriorWeights =\n    \"" << text << "\";\n";
  if (!out) {
    std::cerr << "prior_train: cannot write " << outPath << "\n";
    return 1;
  }
  std::cerr << "prior_train: wrote " << outPath << " (" << text.size() << " characters)\n";
  return 0;
}
