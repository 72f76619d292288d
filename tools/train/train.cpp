// The evaluation's trainer (docs/evaluation.md):
//   train data --db book/book.db --out train/book.tsv            the database's positions as samples
//   train selfplay --games 400 --threads 2 --out train/selfplay.tsv  mid- and late-game samples (resumes)
//   train fit --data train/book.tsv --data train/selfplay.tsv     fits, prints the held-out table,
//                                                                 writes train/weights.h
#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "clock.h"
#include "tools/train/evaluation.h"
#include "tools/book/book_writer.h"
#include "tools/book/db_folder.h"
#include "tools/common/cli.h"
#include "tools/common/progress.h"
#include "tools/common/stop_signal.h"
#include "tools/train/book_samples.h"
#include "tools/train/fit.h"
#include "tools/train/games_file.h"
#include "tools/train/metrics.h"
#include "tools/train/policy_data.h"
#include "tools/train/prior_file.h"
#include "tools/train/prior_fit.h"
#include "tools/train/samples.h"
#include "tools/train/selfplay_samples.h"

using namespace yav;
using namespace yav::train;

namespace {

std::atomic<bool> stopRequested{false};

bool writeSamples(const std::string& path, const std::vector<Sample>& samples, const std::string& comment,
                  std::string& error) {
  std::string text = "# " + comment + "\n# MINE THEIRS STEAL LABEL WEIGHT SOURCE (tools/train/samples.h)\n";
  for (const Sample& s : samples) text += sampleLine(s);
  return book::writeFileAtomically(path, text, error);
}

int commandData(int argc, char** argv) {
  std::string db = "book/book.db", out = "train/book.tsv";
  BookSampleOptions opt;
  cli::Flags flags("train data");
  flags.text("--db", "PATH", db, "the book database", db)
      .text("--out", "FILE", out, "the samples file to write", out)
      .integer("--min-visits", "N", opt.minChildVisits, 1, UINT32_MAX,
               "a searched move's visits for its position to be a sample");
  flags.parseOrExit(argc, argv, 2,
                    "usage: train data [--db PATH] [--out FILE] [--min-visits N]\n"
                    "Writes the database's positions as training samples, one per symmetry class.\n");
  book::Database database;
  std::string error;
  if (!book::loadDatabase(db, database, error)) {
    std::fprintf(stderr, "train data: %s\n", error.c_str());
    return 1;
  }
  SampleSet set;
  size_t verdicts = 0;
  addBookSamples(database, opt, set, verdicts);
  const std::vector<Sample> samples = set.sorted();
  if (!writeSamples(out, samples, "from " + db + ": " + std::to_string(verdicts) + " verdicts", error)) {
    std::fprintf(stderr, "train data: %s\n", error.c_str());
    return 1;
  }
  std::printf("train data: %zu verdicts -> %zu samples in %s\n", verdicts, samples.size(), out.c_str());
  return 0;
}

int commandSelfPlay(int argc, char** argv) {
  std::string out = "train/selfplay.tsv";
  int games = 400, threads = 2;
  SelfPlayOptions opt;
  std::string starts;
  double evenWithin = 0.08;
  int minStones = 4;
  cli::Flags flags("train selfplay");
  flags.text("--out", "FILE", out, "the samples file (appended; its games are not played again)", out)
      .integer("--games", "N", games, 1, 10000000, "games in the file when done")
      .integer("--threads", "T", threads, 1, 256, "games at once")
      .integer("--iterations", "N", opt.iterations, 100, 100000000, "the search that plays and labels each position")
      .integer("--seed", "S", opt.seed, 0, cli::kNoLimit, "the games' seed")
      .text("--starts", "FILE", starts, "start from this samples file's searched positions valued near even",
            "the empty board")
      .number("--even-within", "D", evenWithin, 0, 0.5, "with --starts: |value - 0.5| at most this")
      .integer("--min-stones", "N", minStones, 0, kCells, "with --starts: at least this many stones");
  flags.parseOrExit(argc, argv, 2,
                    "usage: train selfplay [--out FILE] [--games N] [--threads T] [--iterations N] [--seed S]\n"
                    "                      [--starts FILE [--even-within D] [--min-stones N]]\n"
                    "Self-play games of the bot's search at fixed iterations; each position a sample.\n"
                    "Resumes: games already in FILE are skipped. Ctrl-C: the games under way finish (exit 130).\n");
  if (!starts.empty()) {
    std::vector<Sample> samples;
    std::string error;
    if (!readSamples(starts, samples, error)) {
      std::fprintf(stderr, "train selfplay: %s\n", error.c_str());
      return 1;
    }
    for (const Sample& s : samples)
      if (s.source == Source::Book && std::fabs(s.label - 0.5) <= evenWithin && s.stones() >= minStones)
        opt.starts.push_back(s.key);
    if (opt.starts.empty()) {
      std::fprintf(stderr, "train selfplay: no searched position of %s is within %.2f of even with %d+ stones\n",
                   starts.c_str(), evenWithin, minStones);
      return 1;
    }
    std::printf("train selfplay: %zu start positions from %s\n", opt.starts.size(), starts.c_str());
  }
  const std::vector<bool> have = gamesIn(out, games);
  const long already = long(std::count(have.begin(), have.end(), true));
  Progress progress("games", games - already);
  stopOnSignals(stopRequested);
  const int played = playGamesToFile(
      out, have, games, threads, stopRequested,
      [&](uint64_t g) {
        std::string text;
        for (const Sample& s : selfPlayGame(opt, g)) {
          Sample c = s;
          c.key = canonicalize(s.key).key;
          text += sampleLine(c);
        }
        return text;
      },
      [&](int n) { progress.update(n); });
  std::printf("train selfplay: %d games played, %ld already in %s\n", played, already, out.c_str());
  return already + played < games && stopRequested ? kInterruptedStatus : 0;
}

int commandPolicy(int argc, char** argv) {
  std::string out = "train/policy.tsv", starts = "tools/openings/book_exits.txt";
  int games = 400, threads = 2;
  PolicyDataOptions opt;
  cli::Flags flags("train policy");
  flags.text("--out", "FILE", out, "the rows file (appended; its games are not played again)", out)
      .integer("--games", "N", games, 1, 10000000, "games in the file when done")
      .integer("--threads", "T", threads, 1, 256, "games at once")
      .integer("--iterations", "N", opt.iterations, 1000, 100000000, "the long search of each position")
      .integer("--seed", "S", opt.seed, 0, cli::kNoLimit, "the games' seed")
      .text("--starts", "FILE", starts, "lines of moves the odd games start from", starts);
  flags.parseOrExit(argc, argv, 2,
                    "usage: train policy [--out FILE] [--games N] [--threads T] [--iterations N] [--seed S]\n"
                    "                    [--starts FILE]\n"
                    "Self-play games; every position where the search had a choice is written with the\n"
                    "visits its long search gave each move (tools/train/policy_data.h). Resumes: games\n"
                    "already in FILE are skipped. Ctrl-C: the games under way finish (exit 130).\n");
  std::ifstream in(starts);
  if (!in) {
    std::fprintf(stderr, "train policy: %s: cannot open\n", starts.c_str());
    return 1;
  }
  std::string line, error;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    Board b;
    if (!playMoves(line, b, error)) {
      std::fprintf(stderr, "train policy: %s:%d: %s\n", starts.c_str(), n, error.c_str());
      return 1;
    }
    opt.starts.push_back(line);
  }
  const std::vector<bool> have = gamesIn(out, games);
  const long already = long(std::count(have.begin(), have.end(), true));
  Progress progress("games", games - already);
  stopOnSignals(stopRequested);
  const int played = playGamesToFile(
      out, have, games, threads, stopRequested, [&](uint64_t g) { return policyGameRows(opt, g); },
      [&](int n) { progress.update(n); });
  std::printf("train policy: %d games played, %ld already in %s\n", played, already, out.c_str());
  return already + played < games && stopRequested ? kInterruptedStatus : 0;
}

int commandPolicyDb(int argc, char** argv) {
  std::string db = "book/book.db", out = "train/policy-book.tsv";
  uint64_t minVisits = 100000;
  cli::Flags flags("train policy-db");
  flags.text("--db", "PATH", db, "the book database", db)
      .text("--out", "FILE", out, "the rows file to write", out)
      .integer("--min-visits", "N", minVisits, 1, UINT32_MAX, "a verdict's visits in all for it to be a row");
  flags.parseOrExit(argc, argv, 2,
                    "usage: train policy-db [--db PATH] [--out FILE] [--min-visits N]\n"
                    "Writes the database's deep searches as the move prior's rows (tools/train/policy_data.h).\n");
  book::Database database;
  std::string error;
  if (!book::loadDatabase(db, database, error)) {
    std::fprintf(stderr, "train policy-db: %s\n", error.c_str());
    return 1;
  }
  const std::vector<PolicyRow> rows = databaseRows(database, uint32_t(minVisits));
  std::string text = "# the deep searches of " + db + " with " + std::to_string(minVisits) + "+ visits\n";
  for (const PolicyRow& r : rows) text += policyLine(r);
  if (!book::writeFileAtomically(out, text, error)) {
    std::fprintf(stderr, "train policy-db: %s\n", error.c_str());
    return 1;
  }
  std::printf("train policy-db: %zu rows in %s\n", rows.size(), out.c_str());
  return 0;
}

int commandPrior(int argc, char** argv) {
  std::vector<std::string> data;
  std::string out = "train/prior.txt", header = "book/embedded_prior.h";
  PriorFitOptions opt;
  double holdOut = 0.1;
  uint64_t raveIterations = 32;
  uint32_t priorVisits = 0;
  double priorScale = SearchOptions().priorScale;
  bool resume = false;
  cli::Flags flags("train prior");
  flags
      .value("--data", "FILE", "a rows file of train policy (repeat for several)", "train/policy.tsv",
             [&](const std::string& v) {
               data.push_back(v);
               return std::string();
             })
      .text("--out", "FILE", out, "the weights, after each epoch and on Ctrl-C", out)
      .text("--header", "FILE", header, "the generated header the bot embeds", header)
      .option("--resume", resume, "continue from the weights file's epoch")
      .integer("--epochs", "N", opt.epochs, 1, 1000, "passes over the training rows")
      .number("--rate", "R", opt.learningRate, 1e-6, 10, "AdaGrad's step")
      .number("--l2", "L", opt.l2, 0, 1, "L2 regularisation")
      .number("--hold-out", "SHARE", holdOut, 0.01, 0.5, "share of positions held out (by canonical key)")
      .integer("--seed", "S", opt.seed, 0, cli::kNoLimit, "the shuffles' seed")
      .integer("--rave-iterations", "N", raveIterations, 1, 1000000, "the short search RAVE is read after")
      .integer("--prior-visits", "N", priorVisits, 0, 100000,
               "also RAVE with the fitted prior's virtual visits in that search (SearchOptions::priorVisits)")
      .number("--prior-scale", "X", priorScale, 0, 100, "with --prior-visits: SearchOptions::priorScale");
  flags.parseOrExit(argc, argv, 2,
                    "usage: train prior [--data FILE]... [--out FILE] [--epochs N] [--seed S] [--resume]\n"
                    "Fits the move prior (src/move_prior.h) to the long searches' visits and prints the\n"
                    "held-out table by phase: top-1 and top-3 agreement with the search's move and\n"
                    "cross-entropy, for the uniform order, RAVE after a short search, and the prior.\n");
  if (data.empty()) data = {"train/policy.tsv"};
  std::vector<PolicyRow> rows;
  for (const std::string& path : data) {
    std::string error;
    if (!readPolicyRows(path, rows, error)) {
      std::fprintf(stderr, "train prior: %s\n", error.c_str());
      return 1;
    }
  }
  std::vector<PolicyRow> trainRows, testRows;
  for (const PolicyRow& r : distinctRows(rows)) (heldOut(r.key, holdOut) ? testRows : trainRows).push_back(r);
  if (trainRows.empty() || testRows.empty()) {
    std::fprintf(stderr, "train prior: %zu training and %zu held-out rows: need both\n", trainRows.size(),
                 testRows.size());
    return 1;
  }
  std::printf("train prior: %zu rows, %zu positions: %zu training, %zu held out\n", rows.size(),
              trainRows.size() + testRows.size(), trainRows.size(), testRows.size());
  std::vector<EncodedRow> trainSet, testSet;
  for (const PolicyRow& r : trainRows) trainSet.push_back(encodeRow(r));
  for (const PolicyRow& r : testRows) testSet.push_back(encodeRow(r));
  std::vector<float> weights, squares;
  int epoch = 0;
  std::string error;
  if (resume && !loadPrior(out, weights, squares, epoch, error)) {
    std::fprintf(stderr, "train prior: %s\n", error.c_str());
    return 1;
  }
  stopOnSignals(stopRequested);
  const Stopwatch clock;
  epoch = fitPrior(weights, squares, trainSet, opt, epoch, stopRequested, [&](int e, double loss) {
    std::fprintf(stderr, "epoch %d/%d: training cross-entropy %.4f (%.0f s)\n", e + 1, opt.epochs, loss,
                 clock.elapsedMs() / 1000);
    if (!savePrior(out, weights, squares, e + 1, error)) std::fprintf(stderr, "train prior: %s\n", error.c_str());
  });
  if (epoch < opt.epochs) {
    if (!savePrior(out, weights, squares, epoch, error)) std::fprintf(stderr, "train prior: %s\n", error.c_str());
    std::fprintf(stderr, "train prior: stopped at epoch %d of %d; %s holds it (--resume continues)\n", epoch,
                 opt.epochs, out.c_str());
    return kInterruptedStatus;
  }
  // RAVE's distribution after a short search (without and with the prior's virtual visits):
  // softmax of its values at the temperature that fits the training rows best.
  std::vector<PolicyRow> fitRows(trainRows.begin(), trainRows.begin() + std::min<size_t>(trainRows.size(), 2000));
  auto raveScore = [&](uint32_t withPrior, RankScore(&out)[kPriorPhaseCount]) {
    SearchOptions o;
    o.priorVisits = withPrior;
    o.priorScale = priorScale;
    Search search(size_t(1) << 20, o);
    search.usePrior(weights);
    auto raveOf = [&](const std::vector<PolicyRow>& from) {
      std::vector<std::vector<double>> values;
      for (size_t i = 0; i < from.size(); ++i) values.push_back(raveValues(search, from[i], raveIterations, i + 1));
      return values;
    };
    const std::vector<std::vector<double>> fitValues = raveOf(fitRows), testValues = raveOf(testRows);
    double temperature = 1, bestLoss = 1e30;
    std::vector<double> p;
    for (double t = 1; t <= 256; t *= 1.25) {
      double loss = 0;
      for (size_t i = 0; i < fitRows.size(); ++i) softmaxOf(fitValues[i], t, p), loss += crossEntropy(trainSet[i], p);
      if (loss < bestLoss) bestLoss = loss, temperature = t;
    }
    scoreRanking(
        testSet, [&](size_t i, const EncodedRow&, std::vector<double>& q) { softmaxOf(testValues[i], temperature, q); },
        out);
    return temperature;
  };
  RankScore uniform[kPriorPhaseCount], rave[kPriorPhaseCount], learned[kPriorPhaseCount],
      raveWithPrior[kPriorPhaseCount];
  const double temperature = raveScore(0, rave);
  const double temperatureWithPrior = priorVisits ? raveScore(priorVisits, raveWithPrior) : 0;
  scoreRanking(
      testSet,
      [&](size_t, const EncodedRow& r, std::vector<double>& q) { q.assign(r.moves.size(), 1.0 / r.moves.size()); },
      uniform);
  printRankHeader(uniform);
  scoreRanking(
      testSet, [&](size_t, const EncodedRow& r, std::vector<double>& q) { rowProbabilities(weights, r, q); }, learned);
  printRankRow("uniform", uniform);
  char name[64];
  std::snprintf(name, sizeof name, "RAVE, %llu it (T %.1f)", (unsigned long long)raveIterations, temperature);
  printRankRow(name, rave);
  if (priorVisits) {
    std::snprintf(name, sizeof name, "RAVE + prior %u at %.2f (T %.1f)", priorVisits, priorScale, temperatureWithPrior);
    printRankRow(name, raveWithPrior);
  }
  printRankRow("prior", learned);
  // The table again for the weights as the bot reads them (rounded to their steps).
  std::vector<float> shipped;
  std::string text = book::bookTextOf(priorWeightBytes(weights));
  if (!prior::decodeWeights(text, shipped, error)) {
    std::fprintf(stderr, "train prior: the weights' own text does not decode: %s\n", error.c_str());
    return 1;
  }
  RankScore rounded[kPriorPhaseCount];
  scoreRanking(
      testSet, [&](size_t, const EncodedRow& r, std::vector<double>& q) { rowProbabilities(shipped, r, q); }, rounded);
  printRankRow("prior, as embedded", rounded);
  const std::string summary =
      std::to_string(trainSet.size()) + " training positions, " + std::to_string(opt.epochs) + " epochs, seed " +
      std::to_string(opt.seed) + "; held-out top-1 " +
      std::to_string(rounded[kPriorPhaseCount - 1].top1 / double(std::max<size_t>(1, rounded[kPriorPhaseCount - 1].n)));
  if (!writePriorHeader(header, weights, summary, error)) {
    std::fprintf(stderr, "train prior: %s\n", error.c_str());
    return 1;
  }
  std::printf("train prior: wrote %s and %s (%d weights, %zu characters)\n", out.c_str(), header.c_str(),
              prior::weightCount(), text.size() / kBookUtf8Bytes);
  return 0;
}

bool saveCheckpoint(const std::string& path, const EvaluationWeights& e, int epoch, std::string& error) {
  std::string text = "epoch " + std::to_string(epoch) + "\n";
  char buf[32];
  for (float b : e.bias) std::snprintf(buf, sizeof buf, "%.9g\n", double(b)), text += buf;
  for (float w : e.window) std::snprintf(buf, sizeof buf, "%.9g\n", double(w)), text += buf;
  return book::writeFileAtomically(path, text, error);
}
bool loadCheckpoint(const std::string& path, EvaluationWeights& e, int& epoch, std::string& error) {
  std::ifstream in(path);
  if (!in) return error = path + ": cannot open", false;
  std::string word;
  e.window.assign(size_t(kWindowTable.classes * kWindowPatterns), 0.0f);
  if (!(in >> word >> epoch) || word != "epoch") return error = path + ": not a checkpoint (no 'epoch N' line)", false;
  for (float& b : e.bias)
    if (!(in >> b)) return error = path + ": truncated in its biases", false;
  for (size_t i = 0; i < e.window.size(); ++i)
    if (!(in >> e.window[i])) return error = path + ": truncated at weight " + std::to_string(i), false;
  return true;
}

bool writeWeightsHeader(const std::string& path, const EvaluationWeights& e, const std::string& summary,
                        std::string& error) {
  const std::string text = book::bookTextOf(weightBytes(e));
  std::string out = "// Generated by build/bin/train fit; do not edit (see docs/evaluation.md).\n// " + summary +
                    "\n#pragma once\n\ninline const char* const kEmbeddedWeights =\n";
  for (size_t at = 0; at < text.size(); at += 80 * kBookUtf8Bytes)
    out += "    \"" + text.substr(at, 80 * kBookUtf8Bytes) + "\"\n";
  out += "    ;\n";
  return book::writeFileAtomically(path, out, error);
}

int commandFit(int argc, char** argv) {
  std::vector<std::string> data;
  std::string header = "train/weights.h", checkpoint = "train/fit.checkpoint";
  FitOptions opt;
  double holdOut = 0.1;
  uint64_t searchIterations = 200, searchSamples = 2000;
  bool resume = false;
  double proofWeight = 1;
  cli::Flags flags("train fit");
  flags
      .value("--data", "FILE", "a samples file (repeat for several)", "train/book.tsv and train/selfplay.tsv",
             [&](const std::string& v) {
               data.push_back(v);
               return std::string();
             })
      .text("--out", "FILE", header, "the generated weights header", header)
      .text("--checkpoint", "FILE", checkpoint, "weights after each epoch and on Ctrl-C", checkpoint)
      .option("--resume", resume, "continue from the checkpoint's epoch")
      .integer("--epochs", "N", opt.epochs, 1, 1000, "passes over the training samples")
      .number("--rate", "R", opt.learningRate, 1e-6, 10, "the first epoch's step (falls to a tenth)")
      .number("--l2", "L", opt.l2, 0, 1, "L2 regularisation per step")
      .number("--proof-weight", "W", proofWeight, 0, 1, "proven positions' weight (most are lost after a blunder)")
      .number("--hold-out", "SHARE", holdOut, 0.01, 0.5, "share of positions held out (by canonical key)")
      .integer("--seed", "S", opt.seed, 0, cli::kNoLimit, "the shuffles' seed")
      .integer("--search-iterations", "N", searchIterations, 1, 1000000, "the search baseline's iterations")
      .integer("--search-samples", "N", searchSamples, 0, 1000000,
               "held-out samples the search baseline scores (0: none)");
  flags.parseOrExit(argc, argv, 2,
                    "usage: train fit [--data FILE]... [--out FILE] [--epochs N] [--seed S] [--resume]\n"
                    "Fits the evaluation to the samples and prints held-out log-loss, mean error and\n"
                    "accuracy by phase against the constant, a threat count and a short search.\n");
  if (data.empty()) data = {"train/book.tsv", "train/selfplay.tsv"};
  SampleSet set;
  for (const std::string& path : data) {
    std::vector<Sample> samples;
    std::string error;
    if (!readSamples(path, samples, error)) {
      std::fprintf(stderr, "train fit: %s\n", error.c_str());
      return 1;
    }
    for (Sample& s : samples) {
      if (s.source == Source::Proof) s.weight *= float(proofWeight);
      if (s.weight > 0) set.add(s);
    }
  }
  std::vector<Sample> trainSet, testSet;
  for (const Sample& s : set.sorted()) (heldOut(s.key, holdOut) ? testSet : trainSet).push_back(s);
  if (trainSet.empty() || testSet.empty()) {
    std::fprintf(stderr, "train fit: %zu training and %zu held-out samples: need both\n", trainSet.size(),
                 testSet.size());
    return 1;
  }
  std::printf("train fit: %zu training samples, %zu held out\n", trainSet.size(), testSet.size());
  EvaluationWeights weights;
  int epoch = 0;
  std::string error;
  if (resume && !loadCheckpoint(checkpoint, weights, epoch, error)) {
    std::fprintf(stderr, "train fit: %s\n", error.c_str());
    return 1;
  }
  const std::vector<Encoded> encoded = encodeSamples(trainSet);
  stopOnSignals(stopRequested);
  const Stopwatch clock;
  epoch = fitWeights(weights, encoded, opt, epoch, stopRequested, [&](int e, double loss) {
    std::fprintf(stderr, "epoch %d/%d: training log-loss %.4f (%.0f s)\n", e + 1, opt.epochs, loss,
                 clock.elapsedMs() / 1000);
    if (!saveCheckpoint(checkpoint, weights, e + 1, error)) std::fprintf(stderr, "train fit: %s\n", error.c_str());
  });
  if (epoch < opt.epochs) {
    if (!saveCheckpoint(checkpoint, weights, epoch, error)) std::fprintf(stderr, "train fit: %s\n", error.c_str());
    std::fprintf(stderr, "train fit: stopped at epoch %d of %d; the checkpoint %s holds it (--resume continues)\n",
                 epoch, opt.epochs, checkpoint.c_str());
    return kInterruptedStatus;
  }
  const EvaluationWeights q = quantised(weights);
  double mean = 0, total = 0;
  for (const Sample& s : trainSet) mean += s.weight * s.label, total += s.weight;
  mean /= total;
  ThreatCount threats;
  threats.fit(trainSet, 3);
  Score counts[kPhaseCount], learned[kPhaseCount], constant[kPhaseCount], threat[kPhaseCount];
  scoreEvaluator(
      testSet, [&](const Sample&) { return 0.5; }, counts);
  printScoreHeader(counts);
  scoreEvaluator(
      testSet, [&](const Sample& s) { return double(evaluationValue(q, s.board())); }, learned);
  scoreEvaluator(
      testSet, [&](const Sample&) { return mean; }, constant);
  scoreEvaluator(
      testSet, [&](const Sample& s) { return threats.value(s.board()); }, threat);
  printScoreRow("learned (n-tuple)", learned);
  printScoreRow("constant", constant);
  printScoreRow("threat count", threat);
  if (searchSamples > 0) {
    std::vector<Sample> sub;  // every k-th held-out sample, so that each phase keeps its share
    const size_t step = std::max<size_t>(1, testSet.size() / searchSamples);
    for (size_t i = 0; i < testSet.size(); i += step) sub.push_back(testSet[i]);
    Score search[kPhaseCount], learnedSub[kPhaseCount];
    Search engine(size_t(1) << 16);
    scoreEvaluator(
        sub, [&](const Sample& s) { return searchValue(engine, s.board(), searchIterations, 1); }, search);
    scoreEvaluator(
        sub, [&](const Sample& s) { return double(evaluationValue(q, s.board())); }, learnedSub);
    std::printf("on every %zu-th held-out sample (%zu):\n", step, sub.size());
    printScoreRow("learned (n-tuple)", learnedSub);
    printScoreRow(std::to_string(searchIterations) + "-iteration search", search);
  }
  const std::string summary = std::to_string(trainSet.size()) + " training samples, " + std::to_string(opt.epochs) +
                              " epochs, seed " + std::to_string(opt.seed) + "; held-out log-loss " +
                              std::to_string(learned[kPhaseCount - 1].logLoss());
  if (!writeWeightsHeader(header, q, summary, error)) {
    std::fprintf(stderr, "train fit: %s\n", error.c_str());
    return 1;
  }
  std::printf("train fit: wrote %s (%d weights)\n", header.c_str(), EvaluationWeights::count());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "data") return commandData(argc, argv);
  if (command == "selfplay") return commandSelfPlay(argc, argv);
  if (command == "fit") return commandFit(argc, argv);
  if (command == "policy") return commandPolicy(argc, argv);
  if (command == "prior") return commandPrior(argc, argv);
  if (command == "policy-db") return commandPolicyDb(argc, argv);
  std::fprintf(stderr,
               "usage: train data|selfplay|fit|policy|policy-db|prior [options]   (train COMMAND --help for each)\n");
  return command == "--help" || command == "-h" ? 0 : 2;
}
