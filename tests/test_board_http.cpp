// The analysis board's HTTP request parser (tools/analysis_board/http.h): requests read whole however they
// are cut into packets, the limits, the refusals, and a deterministic fuzz run: mutated and random
// requests never crash it and always end in a request or a 4xx/5xx refusal.
// YAVALATH_FUZZ_REQUESTS=N runs N fuzz cases instead of the default 20,000.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "tools/analysis_board/http.h"

namespace {

using yav::board::HttpLimits;
using yav::board::RequestParser;
using ParseState = RequestParser::State;

RequestParser parsedInPieces(const std::string& text, size_t piece, HttpLimits limits = HttpLimits()) {
  RequestParser p(limits);
  for (size_t at = 0; at < text.size() && p.state() == ParseState::NeedMore; at += piece)
    p.feed(text.data() + at, std::min(piece, text.size() - at));
  return p;
}

const std::string kPost =
    "POST /api/move?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/x-www-form-urlencoded\r\n"
    "Content-Length: 10\r\n\r\nmove=3+2&z";

TEST(BoardHttp, ARequestReadsTheSameInAnyPieces) {
  for (size_t piece : {size_t(1), size_t(2), size_t(7), size_t(64), kPost.size()}) {
    RequestParser p = parsedInPieces(kPost, piece);
    ASSERT_EQ(p.state(), ParseState::Done) << "piece " << piece << ": " << p.errorReason();
    const auto& r = p.request();
    EXPECT_EQ(r.method, "POST");
    EXPECT_EQ(r.path, "/api/move");
    EXPECT_EQ(r.query, "x=1");
    EXPECT_EQ(r.headers.at("content-type"), "application/x-www-form-urlencoded");
    EXPECT_EQ(r.body, "move=3+2&z");
  }
  RequestParser half = parsedInPieces(kPost.substr(0, kPost.size() - 1), 5);
  EXPECT_EQ(half.state(), ParseState::NeedMore);  // one body byte short: waits for it
}

TEST(BoardHttp, FormsDecode) {
  std::map<std::string, std::string> form;
  std::string error;
  ASSERT_TRUE(yav::board::parseForm("moves=3+2%3B+3+3&seat=2&&flag", form, error));
  EXPECT_EQ(form["moves"], "3 2; 3 3");
  EXPECT_EQ(form["seat"], "2");
  EXPECT_EQ(form.count("flag"), 1u);
  EXPECT_FALSE(yav::board::parseForm("a=%zz", form, error));
  EXPECT_FALSE(yav::board::parseForm("a=%4", form, error));
}

TEST(BoardHttp, LimitsAndMalformedRequestsAreRefusedWithTheirStatus) {
  HttpLimits small;
  small.maxHeaderBytes = 200, small.maxBodyBytes = 100;
  struct Case {
    std::string text;
    int status;
  };
  const std::vector<Case> cases = {
      {"GET / HTTP/1.1\r\nX: " + std::string(300, 'a') + "\r\n\r\n", 431},
      {"GET / HTTP/1.1\r\nX: " + std::string(300, 'a'), 431},  // no end of the header in sight
      {"POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n", 413},
      {"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 501},
      {"GET / HTTP/2.0\r\n\r\n", 505},
      {"GET / FTP/1.0\r\n\r\n", 400},
      {"GET  / HTTP/1.1\r\n\r\n", 400},
      {"get / HTTP/1.1\r\n\r\n", 400},
      {"GET nopath HTTP/1.1\r\n\r\n", 400},
      {"GET /\x01 HTTP/1.1\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\n folded\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nX: a\rb\r\n\r\n", 400},
      {"\r\n\r\n", 400},
      {"GET /" + std::string(3000, 'a') + " HTTP/1.1\r\n\r\n", 414},
  };
  for (const Case& c : cases) {
    HttpLimits limits = c.status == 414 ? HttpLimits() : small;
    RequestParser p = parsedInPieces(c.text, 3, limits);
    EXPECT_EQ(p.state(), ParseState::Error) << c.text.substr(0, 60);
    EXPECT_EQ(p.errorStatus(), c.status) << c.text.substr(0, 60) << ": " << p.errorReason();
  }
}

// One fuzz case: a valid request, mutated (bytes flipped, cut, repeated, inserted) or replaced by
// random bytes, fed in random pieces.
std::string fuzzedRequest(std::mt19937_64& rng) {
  static const std::vector<std::string> seeds = {
      kPost,
      "GET /api/analyse?moves=3+2%3B3+3&think=100 HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET / HTTP/1.0\n\n",
      "POST /api/record HTTP/1.1\r\nContent-Length: 5\r\n\r\n{\"a\":",
      "POST /api/new HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
  };
  std::string s = seeds[rng() % seeds.size()];
  const int kind = int(rng() % 5);
  if (kind == 0) {  // random bytes
    s.assign(rng() % 300, '\0');
    for (char& c : s) c = char(rng());
    return s;
  }
  const int edits = 1 + int(rng() % 8);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const size_t at = rng() % s.size();
    switch (rng() % 6) {
      case 0:
        s[at] = char(rng());
        break;
      case 1:
        s.erase(at, 1 + rng() % 10);
        break;
      case 2:
        s.insert(at, std::string(1 + rng() % 4, "\r\n :%/?0-9"[rng() % 10]));
        break;
      case 3:
        s.insert(at, s.substr(at, rng() % 40));
        break;
      case 4:
        s.insert(at, "Content-Length: " + std::to_string(int64_t(rng() % 40) - 5) + "\r\n");
        break;
      case 5:
        s.resize(at);
        break;
    }
  }
  if (rng() % 2) s += "\r\n\r\n";  // most mutations lose the header's end: give half of them one
  return s;
}

TEST(BoardHttp, FuzzedRequestsEndInARequestOrARefusal) {
  const char* env = std::getenv("YAVALATH_FUZZ_REQUESTS");
  const long cases = env ? std::atol(env) : 20000;
  std::mt19937_64 rng(86);
  HttpLimits limits;
  limits.maxBodyBytes = 64;
  long done = 0, refused = 0, waiting = 0;
  for (long i = 0; i < cases; ++i) {
    const std::string text = fuzzedRequest(rng);
    RequestParser p(limits);
    for (size_t at = 0; at < text.size() && p.state() == ParseState::NeedMore;) {
      const size_t piece = 1 + rng() % 64;
      p.feed(text.data() + at, std::min(piece, text.size() - at));
      at += piece;
    }
    if (p.state() == ParseState::Error) {
      ++refused;
      ASSERT_GE(p.errorStatus(), 400) << "case " << i;
      ASSERT_LT(p.errorStatus(), 600) << "case " << i;
      ASSERT_FALSE(p.errorReason().empty()) << "case " << i;
    } else if (p.state() == ParseState::Done) {
      ++done;
      const auto& r = p.request();
      ASSERT_FALSE(r.method.empty());
      ASSERT_EQ(r.target.substr(0, 1), "/");
      ASSERT_LE(r.body.size(), limits.maxBodyBytes);
      auto length = r.headers.find("content-length");
      ASSERT_EQ(r.body.size(), length == r.headers.end() ? 0u : std::stoul(length->second)) << "case " << i;
    } else {
      ++waiting;  // a cut request: the server's read deadline answers it (408)
    }
  }
  EXPECT_GT(done, 0);
  EXPECT_GT(refused, 0);
  std::printf("fuzz: %ld requests: %ld read, %ld refused, %ld incomplete\n", cases, done, refused, waiting);
}

}  // namespace
