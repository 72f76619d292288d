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
#include "tools/train/metrics.h"
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
  const std::vector<bool> have = selfPlayGamesIn(out, games);
  const long already = long(std::count(have.begin(), have.end(), true));
  Progress progress("games", games - already);
  stopOnSignals(stopRequested);
  const int played =
      playSelfPlayGames(opt, out, have, games, threads, stopRequested, [&](int n) { progress.update(n); });
  std::printf("train selfplay: %d games played, %ld already in %s\n", played, already, out.c_str());
  return already + played < games && stopRequested ? kInterruptedStatus : 0;
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
  std::fprintf(stderr, "usage: train data|selfplay|fit [options]   (train COMMAND --help for each)\n");
  return command == "--help" || command == "-h" ? 0 : 2;
}
