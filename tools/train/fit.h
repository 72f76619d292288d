// Fitting the evaluation (tools/train/evaluation.h) by logistic regression with soft labels: stochastic
// gradient descent on the weighted cross-entropy, L2-regularised, in a fixed sample order per
// epoch (a seeded shuffle), so a fit is a function of its data, options and seed. The weights are
// kept within the byte range of their text (evaluation.h: steps of kWeightStep).
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/train/evaluation.h"
#include "rng.h"
#include "tools/train/samples.h"

namespace yav::train {

struct FitOptions {
  int epochs = 12;
  double learningRate = 0.02;
  double l2 = 1e-6;
  uint64_t seed = 1;
};

// A sample's features, computed once: the window features and the bias bucket.
struct Encoded {
  uint16_t feature[kMaxWindows];
  uint8_t bucket;
  float label, weight;
};

inline std::vector<Encoded> encodeSamples(const std::vector<Sample>& samples) {
  std::vector<Encoded> out(samples.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    const Board b = samples[i].board();
    int k = 0;
    forEachWindowFeature(b, [&](int f) { out[i].feature[k++] = uint16_t(f); });
    out[i].bucket = uint8_t(phaseBucket(b));
    out[i].label = samples[i].label, out[i].weight = samples[i].weight;
  }
  return out;
}

constexpr float kWeightMin = -128 * kWeightStep, kWeightMax = 127 * kWeightStep;

inline float encodedLogit(const EvaluationWeights& e, const Encoded& s) {
  float z = e.bias[s.bucket];
  for (int k = 0; k < kWindowTable.windows; ++k) z += e.window[s.feature[k]];
  return z;
}

// Runs epochs [firstEpoch, options.epochs) on `e` (zeros when empty), calling onEpoch(epoch, mean
// training loss) after each; stops between samples when `stop` is set. Returns the epochs done.
template <class OnEpoch>
int fitWeights(EvaluationWeights& e, const std::vector<Encoded>& data, const FitOptions& opt, int firstEpoch,
               const std::atomic<bool>& stop, OnEpoch onEpoch) {
  if (e.empty()) e.window.assign(size_t(kWindowTable.classes * kWindowPatterns), 0.0f);
  std::vector<uint32_t> order(data.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = uint32_t(i);
  int epoch = firstEpoch;
  for (; epoch < opt.epochs && !stop.load(); ++epoch) {
    Rng rng(mix64(opt.seed + uint64_t(epoch)));
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(uint32_t(i))]);
    // The step falls linearly to a tenth over the run: large steps find the region, small ones settle.
    const double rate = opt.learningRate * (1 - 0.9 * epoch / std::max(1, opt.epochs - 1));
    double loss = 0, weights = 0;
    for (size_t n = 0; n < order.size(); ++n) {
      if ((n & 0xFFFF) == 0 && stop.load()) return epoch;
      const Encoded& s = data[order[n]];
      const float z = encodedLogit(e, s);
      const double p = 1 / (1 + std::exp(-double(z)));
      loss -= s.weight * (s.label * std::log(std::max(p, 1e-9)) + (1 - s.label) * std::log(std::max(1 - p, 1e-9)));
      weights += s.weight;
      const float g = float(rate * s.weight * (p - s.label));
      e.bias[s.bucket] = std::clamp(e.bias[s.bucket] - g, kWeightMin, kWeightMax);
      for (int k = 0; k < kWindowTable.windows; ++k) {
        float& w = e.window[s.feature[k]];
        w = std::clamp(w - g - float(rate * opt.l2) * w, kWeightMin, kWeightMax);
      }
    }
    onEpoch(epoch, weights > 0 ? loss / weights : 0);
  }
  return epoch;
}

// The weights as the bot reads them: rounded to their steps (what the text will hold).
inline EvaluationWeights quantised(const EvaluationWeights& e) {
  EvaluationWeights q = e;
  for (float& b : q.bias) b = std::round(b / kWeightStep) * kWeightStep;
  for (float& w : q.window) w = std::round(w / kWeightStep) * kWeightStep;
  return q;
}

inline std::string weightBytes(const EvaluationWeights& e) {
  std::string bytes;
  bytes += char(kWeightsVersion);
  bytes += char(kWindowTable.classes);
  auto byte = [](float w) { return char(int8_t(std::clamp(std::lround(w / kWeightStep), -128l, 127l))); };
  for (float b : e.bias) bytes += byte(b);
  for (float w : e.window) bytes += byte(w);
  return bytes;
}

}  // namespace yav::train
