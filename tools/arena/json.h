// Minimal JSON for the arena's own files (match summary, game records): a writer helper and a
// small reader into a tree. Enough for what the arena writes; not a general JSON library.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace yav::arena::json {

inline std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\')
      out += '\\', out += char(c);
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else
      out += char(c);
  }
  return out + "\"";
}

// Numbers with up to `digits` decimals; non-finite values become null (JSON has no infinity).
inline std::string number(double v, int digits = 3) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

struct Value {
  enum class Type { Null, Bool, Number, String, Array, Object } type = Type::Null;
  bool boolean = false;
  double num = 0;
  std::string str;
  std::vector<Value> items;
  std::map<std::string, Value> fields;

  const Value* get(const std::string& key) const {
    auto it = fields.find(key);
    return it == fields.end() ? nullptr : &it->second;
  }
  double numberOr(const std::string& key, double fallback) const {
    const Value* v = get(key);
    return v && v->type == Type::Number ? v->num : fallback;
  }
  std::string stringOr(const std::string& key, const std::string& fallback) const {
    const Value* v = get(key);
    return v && v->type == Type::String ? v->str : fallback;
  }
};

class Reader {
 public:
  explicit Reader(const std::string& text) : s_(text) {}
  bool parse(Value& v, std::string& error) {
    if (!value(v) || (skip(), pos_ != s_.size())) {
      error = "invalid JSON near character " + std::to_string(pos_);
      return false;
    }
    return true;
  }

 private:
  void skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  bool literal(const char* word) {
    size_t n = std::char_traits<char>::length(word);
    if (s_.compare(pos_, n, word) != 0) return false;
    pos_ += n;
    return true;
  }
  bool string(std::string& out) {
    if (pos_ >= s_.size() || s_[pos_] != '"') return false;
    ++pos_;
    out.clear();
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) return false;
      char e = s_[pos_++];
      if (e == 'n')
        out += '\n';
      else if (e == 't')
        out += '\t';
      else if (e == 'r')
        out += '\r';
      else if (e == 'b')
        out += '\b';
      else if (e == 'f')
        out += '\f';
      else if (e == 'u') {
        unsigned code = 0;  // exactly four hexadecimal digits
        for (int k = 0; k < 4; ++k, ++pos_) {
          if (pos_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[pos_]))) return false;
          const char d = char(std::tolower(static_cast<unsigned char>(s_[pos_])));
          code = code * 16 + unsigned(d <= '9' ? d - '0' : d - 'a' + 10);
        }
        out += code < 0x80 ? char(code) : '?';  // the arena writes ASCII only
      } else
        out += e;
    }
    if (pos_ >= s_.size()) return false;
    ++pos_;
    return true;
  }
  bool value(Value& v) {
    skip();
    if (pos_ >= s_.size()) return false;
    char c = s_[pos_];
    if (c == '{') {
      v.type = Value::Type::Object;
      ++pos_;
      skip();
      if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
      for (;;) {
        skip();
        std::string key;
        if (!string(key)) return false;
        skip();
        if (pos_ >= s_.size() || s_[pos_++] != ':') return false;
        if (!value(v.fields[key])) return false;
        skip();
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
        return false;
      }
    }
    if (c == '[') {
      v.type = Value::Type::Array;
      ++pos_;
      skip();
      if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
      for (;;) {
        v.items.emplace_back();
        if (!value(v.items.back())) return false;
        skip();
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
        return false;
      }
    }
    if (c == '"') return v.type = Value::Type::String, string(v.str);
    if (literal("true")) return v.type = Value::Type::Bool, v.boolean = true, true;
    if (literal("false")) return v.type = Value::Type::Bool, v.boolean = false, true;
    if (literal("null")) return v.type = Value::Type::Null, true;
    size_t start = pos_;
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' ||
                                s_[pos_] == '+' || s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
      ++pos_;
    if (start == pos_) return false;
    v.type = Value::Type::Number;
    try {
      v.num = std::stod(s_.substr(start, pos_ - start));
    } catch (...) {
      return false;
    }
    return true;
  }

  const std::string& s_;
  size_t pos_ = 0;
};

inline bool parse(const std::string& text, Value& v, std::string& error) { return Reader(text).parse(v, error); }

}  // namespace yav::arena::json
