// Command lines of the tools: each flag is declared once, with its meaning and its default, so the
// --help text and the parser cannot drift apart; numbers are checked whole (no trailing garbage)
// and against their range. (The bot keeps its own small parser: it ships alone, without tools/.)
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <istream>
#include <limits>
#include <string>
#include <vector>

namespace yav::cli {

// Reads `in` line by line, calling onLine(line, number) (numbered from 1) until it returns false.
// Returns the number of lines read: the text files' parsers name the line of an error and how
// many lines a file without entries had.
template <class OnLine>
int forEachLine(std::istream& in, OnLine&& onLine) {
  std::string line;
  int number = 0;
  while (std::getline(in, line))
    if (!onLine(line, ++number)) break;
  return number;
}

// A number as the help and error texts write it: 1, 0.05, 1e-09.
inline std::string numberText(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// A 64-bit value as 16 hexadecimal digits: run ids, and bitboards in suite files.
inline std::string hexText(uint64_t v) {
  char text[20];
  std::snprintf(text, sizeof text, "%016llx", (unsigned long long)v);
  return text;
}

// The whole of `text` as a finite number in [min, max].
inline bool toNumber(const std::string& text, double min, double max, double& out) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || v < min || v > max) return false;
  out = v;
  return true;
}

// The whole of `text` as an integer in [min, max]: decimal digits (exact up to 2^64 - 1), or a
// number with an integral value such as 1e6 (exact up to 2^53).
inline bool toInteger(const std::string& text, uint64_t min, uint64_t max, uint64_t& out) {
  uint64_t v = 0;
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    char* end = nullptr;
    errno = 0;
    v = std::strtoull(text.c_str(), &end, 10);
    if (errno != 0) return false;
  } else {
    double d = 0;
    if (!toNumber(text, 0, 9007199254740992.0, d) || d != std::floor(d)) return false;
    v = uint64_t(d);
  }
  if (v < min || v > max) return false;
  out = v;
  return true;
}

class Flags {
 public:
  // Turns the text of a flag's value into the setting; returns an error message, or "" when fine.
  using Apply = std::function<std::string(const std::string& value)>;

  explicit Flags(std::string tool) : tool_(std::move(tool)) {}

  // A switch, off unless given.
  Flags& option(const std::string& name, bool& target, const std::string& meaning) {
    flags_.push_back({name, "", meaning, "off", nullptr, &target});
    return *this;
  }
  // A flag with a value, turned into the setting by `apply`.
  Flags& value(const std::string& name, const std::string& placeholder, const std::string& meaning,
               const std::string& defaultText, Apply apply) {
    flags_.push_back({name, placeholder, meaning, defaultText, std::move(apply), nullptr});
    return *this;
  }
  // A flag whose value may be left out: the next argument is its value only when `isValue` says
  // so; otherwise `apply` gets "".
  Flags& optionalValue(const std::string& name, const std::string& placeholder, const std::string& meaning,
                       const std::string& defaultText, std::function<bool(const std::string&)> isValue, Apply apply) {
    value(name, placeholder, meaning, defaultText, std::move(apply));
    flags_.back().isValue = std::move(isValue);
    return *this;
  }
  Flags& text(const std::string& name, const std::string& placeholder, std::string& target, const std::string& meaning,
              const std::string& defaultText) {
    return value(name, placeholder, meaning, defaultText, [&target](const std::string& v) {
      target = v;
      return std::string();
    });
  }
  // A number in [min, max]; the default shown is the target's value unless `defaultText` says more.
  Flags& number(const std::string& name, const std::string& placeholder, double& target, double min, double max,
                const std::string& meaning, const std::string& defaultText = "") {
    return value(name, placeholder, meaning, defaultText.empty() ? numberText(target) : defaultText,
                 [name, &target, min, max](const std::string& v) {
                   return toNumber(v, min, max, target) ? std::string() : rangeError(name, min, max, v);
                 });
  }
  // An integer in [min, max] into any integer type; the default shown as for number().
  template <class Int>
  Flags& integer(const std::string& name, const std::string& placeholder, Int& target, uint64_t min, uint64_t max,
                 const std::string& meaning, const std::string& defaultText = "") {
    return value(name, placeholder, meaning, defaultText.empty() ? std::to_string(target) : defaultText,
                 [name, &target, min, max](const std::string& v) {
                   uint64_t n = 0;
                   double d = 0;
                   if (!toInteger(v, min, max, n))
                     return toNumber(v, double(min), double(max), d) ? name + " expects a whole number, got '" + v + "'"
                                                                     : rangeError(name, double(min), double(max), v);
                   target = Int(n);
                   return std::string();
                 });
  }
  // The flags' part of --help: "  --name VALUE  meaning (default ...)", wrapped at 100 columns with
  // the continuation lines under the meaning (a long name puts the meaning on the next line).
  std::string help() const {
    size_t width = 12;
    for (const Flag& f : flags_)
      if (label(f).size() <= kLabelWidth) width = std::max(width, label(f).size());
    const std::string indent(width + 4, ' ');
    std::string out;
    auto entry = [&](const std::string& name, const std::string& text) {
      std::string line = "  " + name;
      if (name.size() > width) out += line + "\n", line = indent;
      line.resize(indent.size(), ' ');
      size_t start = 0;
      while (start < text.size()) {  // word by word; a long word overflows rather than breaks
        const size_t space = text.find(' ', start);
        const std::string word = text.substr(start, space == std::string::npos ? std::string::npos : space - start);
        start = space == std::string::npos ? text.size() : space + 1;
        if (line.size() > indent.size() && line.size() + 1 + word.size() > kLineWidth)
          out += line + "\n", line = indent;
        line += (line.size() > indent.size() ? " " : "") + word;
      }
      out += line + "\n";
    };
    for (const Flag& f : flags_) entry(label(f), f.meaning + " (default " + f.defaultText + ")");
    entry("--help", "this text");
    return out;
  }

  // Reads argv[first..argc): declared flags anywhere, other arguments into `positional` in order
  // (an argument starting with '-' that is not declared is an error). "--help"/"-h" sets `help`.
  // Returns "" or the first error.
  std::string parse(int argc, char** argv, int first, std::vector<std::string>& positional, bool& help) const {
    for (int i = first; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        help = true;
        continue;
      }
      const Flag* f = find(arg);
      if (!f) {
        if (arg.size() > 1 && arg[0] == '-') return "unknown option '" + arg + "'";
        positional.push_back(arg);
        continue;
      }
      if (f->sw) {
        *f->sw = true;
        continue;
      }
      std::string error;
      if (f->isValue)
        error = f->apply(i + 1 < argc && f->isValue(argv[i + 1]) ? argv[++i] : "");
      else if (i + 1 >= argc)
        error = arg + " needs a value (" + f->placeholder + ")";
      else
        error = f->apply(argv[++i]);
      if (!error.empty()) return error;
    }
    return "";
  }

  // The usual whole command line: parses argv[first..argc); on --help prints `intro`, the flags'
  // help and `outro`, and exits 0; on an error, or more than `maxPositional` other arguments, fails
  // (exit 2). Returns the other arguments.
  std::vector<std::string> parseOrExit(int argc, char** argv, int first, const std::string& intro,
                                       size_t maxPositional = 0, const std::string& outro = "") const {
    std::vector<std::string> positional;
    bool help = false;
    const std::string error = parse(argc, argv, first, positional, help);
    if (help) {
      std::fputs((intro + this->help() + outro).c_str(), stdout);
      std::exit(0);
    }
    if (!error.empty()) fail(error);
    if (positional.size() > maxPositional) fail("unexpected argument '" + positional[maxPositional] + "'");
    return positional;
  }

  // The tools' way to report a bad command line: "TOOL: message" and where to look, exit status 2.
  [[noreturn]] void fail(const std::string& message) const {
    std::fprintf(stderr, "%s: %s\n(run '%s --help' for the options)\n", tool_.c_str(), message.c_str(), tool_.c_str());
    std::exit(2);
  }

  // "--games expects a number >= 1, got 'x'" (or "from 1 to 1000").
  static std::string rangeError(const std::string& name, double min, double max, const std::string& got) {
    const bool bounded = max < 1e9;  // a larger maximum only guards the type: not worth naming
    return name + " expects a number" +
           (bounded ? " from " + numberText(min) + " to " + numberText(max) : " >= " + numberText(min)) + ", got '" +
           got + "'";
  }

 private:
  struct Flag {
    std::string name, placeholder, meaning, defaultText;
    Apply apply;
    bool* sw;                                                   // a switch's target (no value)
    std::function<bool(const std::string&)> isValue = nullptr;  // optional values only
  };
  static constexpr size_t kLabelWidth = 21, kLineWidth = 100;
  static std::string label(const Flag& f) { return f.placeholder.empty() ? f.name : f.name + " " + f.placeholder; }
  const Flag* find(const std::string& name) const {
    for (const Flag& f : flags_)
      if (f.name == name) return &f;
    return nullptr;
  }

  std::string tool_;
  std::vector<Flag> flags_;
};

constexpr double kNoMax = std::numeric_limits<double>::infinity();
constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();

}  // namespace yav::cli
