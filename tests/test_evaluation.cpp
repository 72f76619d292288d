// The learned evaluation (tools/train/evaluation.h) and its trainer's pieces (tools/train/): symmetry and
// colour sharing, the weights text, the sample files, and a deterministic, interruptible fit.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "tools/train/evaluation.h"
#include "playout.h"
#include "rng.h"
#include "symmetry.h"
#include "tools/book/book_writer.h"
#include "tools/train/fit.h"
#include "tools/train/samples.h"

namespace yav {
namespace {

EvaluationWeights randomWeights(uint64_t seed) {
  EvaluationWeights e;
  Rng rng(seed);
  e.window.resize(size_t(kWindowTable.classes * kWindowPatterns));
  for (float& w : e.window) w = float(int(rng.below(256)) - 128) * kWeightStep;
  for (float& b : e.bias) b = float(int(rng.below(256)) - 128) * kWeightStep;
  return e;
}

// A position of `stones` random stones (no game-ending check: the evaluation reads any stones).
Board randomStones(Rng& rng, int stones) {
  Bitboard p[2] = {0, 0};
  for (int i = 0; i < stones; ++i) p[i & 1] |= bit(randomCell(kFullBoard & ~(p[0] | p[1]), rng));
  return Board::fromStones(p[0], p[1], stones & 1);
}

TEST(Evaluation, EveryWindowOfFiveCellsOnceInNineSymmetryClasses) {
  const WindowTable& t = kWindowTable;
  EXPECT_EQ(t.windows, 75);  // per axis, lines of 5..9 cells hold 1+2+3+4+5+4+3+2+1 windows
  EXPECT_EQ(t.classes, 9);
  int perCell[kCells] = {};
  for (int w = 0; w < t.windows; ++w)
    for (int i = 0; i < kWindowLength; ++i) ++perCell[t.cell[w][i]];
  EXPECT_EQ(perCell[cellAt(4, 4)], 15);  // the centre: 5 windows on each axis
  EXPECT_EQ(perCell[cellAt(0, 0)], 3);   // a corner: one window on each axis
}

TEST(Evaluation, AllTwelveImagesOfAPositionEvaluateAlike) {
  // Fails when a window is read in the wrong order for its class, or a mirrored class is not
  // folded: random weights make every such slip visible.
  const EvaluationWeights e = randomWeights(7);
  Rng rng(11);
  for (int n = 0; n < 200; ++n) {
    const Board b = randomStones(rng, 2 + int(rng.below(40)));
    const float expected = evaluationLogit(e, b);
    for (int t = 1; t < kSymmetries; ++t) {
      const Board image = Board::fromStones(transformBits(t, b.stones(0)), transformBits(t, b.stones(1)), b.toMove());
      ASSERT_NEAR(evaluationLogit(e, image), expected, 1e-4) << "transform " << t << ", position " << n;
    }
  }
}

TEST(Evaluation, ColoursShareTheWeightsThroughTheSideToMove) {
  const EvaluationWeights e = randomWeights(3);
  Rng rng(5);
  for (int n = 0; n < 100; ++n) {
    const Board b = randomStones(rng, 2 * int(rng.below(20)) + 2);  // even: player 0 to move
    const Board swapped = Board::fromStones(b.stones(1), b.stones(0), 1);
    ASSERT_EQ(evaluationLogit(e, b), evaluationLogit(e, swapped));
  }
}

TEST(Evaluation, WeightsTextRoundTripsAndDamageIsNamed) {
  const EvaluationWeights e = train::quantised(randomWeights(9));
  const std::string text = book::bookTextOf(train::weightBytes(e));
  EvaluationWeights back;
  std::string error;
  ASSERT_TRUE(decodeWeights(text, back, error)) << error;
  EXPECT_EQ(back.window, e.window);
  for (int i = 0; i < kPhaseBuckets; ++i) EXPECT_EQ(back.bias[i], e.bias[i]);

  std::string damaged = text;
  damaged[30 * kBookUtf8Bytes + 2] ^= 1;  // character 30 becomes another valid character
  EXPECT_FALSE(decodeWeights(damaged, back, error));
  EXPECT_NE(error.find("checksum"), std::string::npos) << error;
  damaged = text;
  damaged[40 * kBookUtf8Bytes] = 'x';
  EXPECT_FALSE(decodeWeights(damaged, back, error));
  EXPECT_NE(error.find("character 40 (byte 120)"), std::string::npos) << error;
  EXPECT_FALSE(decodeWeights(text.substr(0, text.size() - 2), back, error));
  EXPECT_NE(error.find("truncated character"), std::string::npos) << error;
  // A valid text of the wrong length (another evaluation's) is refused too.
  EXPECT_FALSE(decodeWeights(book::bookTextOf(train::weightBytes(e).substr(0, 100)), back, error));
  EXPECT_NE(error.find("does not match"), std::string::npos) << error;
}

TEST(TrainSamples, LinesRoundTripAndBadLinesAreRefusedWithTheirReason) {
  train::Sample s{{0x5, 0x18, false}, 0.25f, 0.5f, train::Source::Child};
  std::string line = train::sampleLine(s);
  line.pop_back();
  train::Sample back;
  std::string error;
  ASSERT_TRUE(train::parseSample(line, back, error)) << error;
  EXPECT_EQ(back.key, s.key);
  EXPECT_FLOAT_EQ(back.label, 0.25f);
  EXPECT_EQ(back.source, train::Source::Child);
  EXPECT_FALSE(train::parseSample("0000000000000001 0000000000000001 0 0.5 1 book", back, error));  // one cell twice
  EXPECT_FALSE(
      train::parseSample("0000000000000001 0000000000000002 0 1.5 1 book", back, error));          // label out of range
  EXPECT_FALSE(train::parseSample("0000000000000001 0000000000000002 0 0.5 1 bok", back, error));  // unknown source
  EXPECT_FALSE(train::parseSample("0000000000000001 0000000000000002 0 0.5 1 book x", back, error));  // trailing text
  const std::string path = ::testing::TempDir() + "/bad_samples.tsv";
  std::ofstream(path) << "# comment\n" << train::sampleLine(s) << "garbage\n";
  std::vector<train::Sample> samples;
  EXPECT_FALSE(train::readSamples(path, samples, error));
  EXPECT_NE(error.find("bad_samples.tsv:3:"), std::string::npos) << error;
  EXPECT_FALSE(train::readSamples(path + ".missing", samples, error));
  EXPECT_NE(error.find("cannot open"), std::string::npos) << error;
}

std::vector<train::Encoded> smallTrainingSet() {
  Rng rng(21);
  std::vector<train::Sample> samples;
  for (int n = 0; n < 400; ++n) {
    const Board b = randomStones(rng, 3 + int(rng.below(30)));
    // A learnable label: more stones of the side to move on the centre's lines is better.
    const int centre = popcount(b.stones(b.toMove()) & 0x0000001FF0000000ull);
    samples.push_back({PositionKey::of(b), centre > 1 ? 0.8f : 0.3f, 1.0f, train::Source::SelfPlay});
  }
  return train::encodeSamples(samples);
}

TEST(TrainFit, SameDataAndSeedGiveTheSameWeightsAndTheLossFalls) {
  const std::vector<train::Encoded> data = smallTrainingSet();
  train::FitOptions opt;
  opt.epochs = 4;
  std::atomic<bool> stop{false};
  std::vector<double> losses;
  EvaluationWeights a, b;
  EXPECT_EQ(train::fitWeights(a, data, opt, 0, stop, [&](int, double loss) { losses.push_back(loss); }), 4);
  EXPECT_EQ(train::fitWeights(b, data, opt, 0, stop, [](int, double) {}), 4);
  EXPECT_EQ(a.window, b.window);
  ASSERT_EQ(losses.size(), 4u);
  EXPECT_LT(losses.back(), losses.front());
}

TEST(TrainFit, AStopRequestEndsTheFitBeforeItsEpochs) {
  const std::vector<train::Encoded> data = smallTrainingSet();
  train::FitOptions opt;
  opt.epochs = 10;
  std::atomic<bool> stop{false};
  EvaluationWeights e;
  const int done = train::fitWeights(e, data, opt, 0, stop, [&](int epoch, double) {
    if (epoch == 1) stop = true;
  });
  EXPECT_EQ(done, 2);
}

}  // namespace
}  // namespace yav
