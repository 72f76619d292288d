// HTTP/1.x for the analysis board's server: an incremental request parser with size limits, the form and
// query decoding the page's requests use, and the response text. Only what a local page needs:
// one request per connection (every response says `Connection: close`), bodies by Content-Length
// (no chunked transfer coding: 501). Anything else is refused with the status that says why.
#pragma once

#include <cctype>
#include <cstdint>
#include <map>
#include <string>

namespace yav::board {

struct HttpLimits {
  size_t maxHeaderBytes = 8192;           // request line and headers together
  size_t maxBodyBytes = size_t(4) << 20;  // an arena record is posted whole
  size_t maxTargetBytes = 2048;
  size_t maxHeaders = 64;
};

struct HttpRequest {
  std::string method, target, path, query, version;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};

// Feed it the bytes as they arrive; it says when the request is whole or what is wrong with it.
class RequestParser {
 public:
  enum class State { NeedMore, Done, Error };

  explicit RequestParser(HttpLimits limits = HttpLimits()) : limits_(limits) {}

  State feed(const char* data, size_t size) {
    if (state_ != State::NeedMore) return state_;
    buffer_.append(data, size);
    if (!headerDone_) {
      size_t end = buffer_.find("\r\n\r\n");
      size_t skip = 4;
      const size_t bare = buffer_.find("\n\n");  // bare newlines, as some clients send
      if (bare != std::string::npos && (end == std::string::npos || bare < end)) end = bare, skip = 2;
      if (end == std::string::npos) {
        if (buffer_.size() > limits_.maxHeaderBytes)
          return fail(431, "request header over " + std::to_string(limits_.maxHeaderBytes) + " bytes");
        return state_;
      }
      if (end + skip > limits_.maxHeaderBytes)
        return fail(431, "request header over " + std::to_string(limits_.maxHeaderBytes) + " bytes");
      if (!parseHead(buffer_.substr(0, end))) return state_;
      buffer_.erase(0, end + skip);
      headerDone_ = true;
    }
    if (buffer_.size() >= bodyBytes_) {
      request_.body = buffer_.substr(0, bodyBytes_);
      buffer_.clear();
      state_ = State::Done;
    }
    return state_;
  }

  State state() const { return state_; }
  const HttpRequest& request() const { return request_; }
  int errorStatus() const { return errorStatus_; }
  const std::string& errorReason() const { return errorReason_; }

 private:
  State fail(int status, std::string reason) {
    errorStatus_ = status, errorReason_ = std::move(reason);
    return state_ = State::Error;
  }
  static bool isTokenChar(unsigned char c) {
    return std::isalnum(c) || std::string("!#$%&'*+-.^_`|~").find(char(c)) != std::string::npos;
  }
  static std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  static std::string trimmed(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
    return s.substr(b, e - b);
  }

  bool parseHead(const std::string& head) {
    size_t at = 0;
    bool first = true;
    while (at <= head.size()) {
      size_t nl = head.find('\n', at);
      if (nl == std::string::npos) nl = head.size();
      std::string line = head.substr(at, nl - at);
      at = nl + 1;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      for (unsigned char c : line)
        if ((c < 0x20 && c != '\t') || c == 0x7f) return fail(400, "control character in the request header"), false;
      if (first) {
        if (!parseRequestLine(line)) return false;
        first = false;
        continue;
      }
      if (line.empty()) return fail(400, "empty header line"), false;
      if (line[0] == ' ' || line[0] == '\t') return fail(400, "folded header line"), false;
      const size_t colon = line.find(':');
      if (colon == std::string::npos || colon == 0) return fail(400, "header line without 'name:'"), false;
      const std::string name = line.substr(0, colon);
      for (unsigned char c : name)
        if (!isTokenChar(c)) return fail(400, "bad character in a header name"), false;
      if (request_.headers.size() >= limits_.maxHeaders)
        return fail(431, "more than " + std::to_string(limits_.maxHeaders) + " headers"), false;
      const std::string key = lower(name), value = trimmed(line.substr(colon + 1));
      auto old = request_.headers.find(key);
      if (old != request_.headers.end() && key == "content-length" && old->second != value)
        return fail(400, "two different Content-Length headers"), false;
      request_.headers[key] = value;
    }
    if (request_.headers.count("transfer-encoding"))
      return fail(501, "Transfer-Encoding is not supported (send Content-Length)"), false;
    auto length = request_.headers.find("content-length");
    if (length != request_.headers.end()) {
      const std::string& v = length->second;
      if (v.empty() || v.size() > 18) return fail(400, "bad Content-Length '" + v.substr(0, 40) + "'"), false;
      uint64_t n = 0;
      for (char c : v) {
        if (c < '0' || c > '9') return fail(400, "bad Content-Length '" + v.substr(0, 40) + "'"), false;
        n = n * 10 + uint64_t(c - '0');
      }
      if (n > limits_.maxBodyBytes)
        return fail(413, "body of " + std::to_string(n) + " bytes, over the limit of " +
                             std::to_string(limits_.maxBodyBytes)),
               false;
      bodyBytes_ = size_t(n);
    }
    return true;
  }

  bool parseRequestLine(const std::string& line) {
    const size_t sp1 = line.find(' ');
    const size_t sp2 = sp1 == std::string::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp2 == std::string::npos || line.find(' ', sp2 + 1) != std::string::npos)
      return fail(400, "request line is not 'METHOD TARGET HTTP/1.x'"), false;
    request_.method = line.substr(0, sp1);
    request_.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    request_.version = line.substr(sp2 + 1);
    if (request_.method.empty() || request_.method.size() > 16) return fail(400, "bad method"), false;
    for (unsigned char c : request_.method)
      if (!std::isupper(c)) return fail(400, "bad method"), false;
    if (request_.target.size() > limits_.maxTargetBytes)
      return fail(414, "request target over " + std::to_string(limits_.maxTargetBytes) + " bytes"), false;
    if (request_.target.empty() || request_.target[0] != '/')
      return fail(400, "request target must start with '/'"), false;
    for (unsigned char c : request_.target)
      if (c <= 0x20 || c >= 0x7f) return fail(400, "bad character in the request target"), false;
    if (request_.version != "HTTP/1.1" && request_.version != "HTTP/1.0") {
      if (request_.version.rfind("HTTP/", 0) == 0)
        return fail(505, "HTTP version " + request_.version.substr(0, 20) + " not supported"), false;
      return fail(400, "request line is not 'METHOD TARGET HTTP/1.x'"), false;
    }
    const size_t q = request_.target.find('?');
    request_.path = request_.target.substr(0, q);
    request_.query = q == std::string::npos ? "" : request_.target.substr(q + 1);
    return true;
  }

  HttpLimits limits_;
  State state_ = State::NeedMore;
  std::string buffer_;
  bool headerDone_ = false;
  size_t bodyBytes_ = 0;
  HttpRequest request_;
  int errorStatus_ = 0;
  std::string errorReason_;
};

// application/x-www-form-urlencoded (and query strings): '+' is a space, %XX a byte. False on a
// bad escape.
inline bool urlDecode(const std::string& in, std::string& out) {
  out.clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '+')
      out += ' ';
    else if (in[i] != '%')
      out += in[i];
    else {
      if (i + 2 >= in.size() || !std::isxdigit(static_cast<unsigned char>(in[i + 1])) ||
          !std::isxdigit(static_cast<unsigned char>(in[i + 2])))
        return false;
      out += char(std::stoi(in.substr(i + 1, 2), nullptr, 16));
      i += 2;
    }
  }
  return true;
}

// "a=1&b=x+y" -> {a: 1, b: "x y"}; false with `error` on a bad escape.
inline bool parseForm(const std::string& text, std::map<std::string, std::string>& form, std::string& error) {
  size_t at = 0;
  while (at < text.size()) {
    size_t amp = text.find('&', at);
    if (amp == std::string::npos) amp = text.size();
    const std::string item = text.substr(at, amp - at);
    at = amp + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    std::string key, value;
    if (!urlDecode(item.substr(0, eq), key) || !urlDecode(eq == std::string::npos ? "" : item.substr(eq + 1), value))
      return error = "bad %-escape in '" + item.substr(0, 60) + "'", false;
    form[key] = value;
  }
  return true;
}

struct HttpResponse {
  int status = 200;
  std::string contentType = "application/json";
  std::string body;
};

inline const char* statusText(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 413:
      return "Content Too Large";
    case 414:
      return "URI Too Long";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Status";
  }
}

inline std::string responseText(const HttpResponse& r) {
  return "HTTP/1.1 " + std::to_string(r.status) + " " + statusText(r.status) + "\r\nContent-Type: " + r.contentType +
         "\r\nContent-Length: " + std::to_string(r.body.size()) +
         "\r\nConnection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n" + r.body;
}

}  // namespace yav::board
