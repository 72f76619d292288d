// The set-up of a match or tournament: what decides how its games are played (bots, limits,
// openings, pairings). Written as the first line of every record file, with the date and the
// arena version, so that `--resume` can refuse to mix games played under another set-up.
//
// {"record_header":{"arena_version":"3","date":"2026-01-31T12:00:00Z","mode":"match",
//  "bots":[{"name":"A","command":"build/bin/bot"},...],"limits":{...},"openings":{...},
//  "games_per_pairing":100}}
// `games_per_pairing` is informative: a resumed run may play more or fewer games.
#pragma once

#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "tools/arena/json.h"
#include "tools/arena/openings.h"
#include "tools/arena/referee.h"

namespace yav::arena {

constexpr const char* kArenaVersion = "3";  // raise when the way games are played changes

struct BotSpec {
  std::string name, command;
};

struct SetUp {
  std::string mode = "match";  // "match" (two bots), "round-robin" or "gauntlet"
  std::vector<BotSpec> bots;
  Limits limits;
  OpeningSettings openings;
  int gamesPerPairing = 0;
};

inline std::string utcNow() {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return stamp;
}

inline std::string headerToJson(const SetUp& s, const std::string& date) {
  using json::quote;
  std::string o = "{\"record_header\":{\"arena_version\":" + quote(kArenaVersion) + ",\"date\":" + quote(date) +
                  ",\"mode\":" + quote(s.mode) + ",\"bots\":[";
  for (size_t i = 0; i < s.bots.size(); ++i)
    o += std::string(i ? "," : "") + "{\"name\":" + quote(s.bots[i].name) + ",\"command\":" + quote(s.bots[i].command) +
         "}";
  o += "],\"limits\":{\"first_turn_ms\":" + json::number(s.limits.firstTurnMs, 6) +
       ",\"turn_ms\":" + json::number(s.limits.turnMs, 6) + ",\"grace\":" + json::number(s.limits.grace, 6) +
       "},\"openings\":" + openingsJson(s.openings) + ",\"games_per_pairing\":" + std::to_string(s.gamesPerPairing) +
       "}}";
  return o;
}

// True when `line` is a record header (then `s`, `version` and `date` are read from it).
inline bool headerFromJson(const std::string& line, SetUp& s, std::string& version, std::string& date) {
  json::Value v;
  std::string error;
  if (!json::parse(line, v, error)) return false;
  const json::Value* h = v.get("record_header");
  if (!h) return false;
  s = SetUp();
  version = h->stringOr("arena_version", "?");
  date = h->stringOr("date", "?");
  s.mode = h->stringOr("mode", "?");
  if (const json::Value* bots = h->get("bots"))
    for (const auto& b : bots->items) s.bots.push_back({b.stringOr("name", ""), b.stringOr("command", "")});
  if (const json::Value* l = h->get("limits")) {
    s.limits.firstTurnMs = l->numberOr("first_turn_ms", -1);
    s.limits.turnMs = l->numberOr("turn_ms", -1);
    s.limits.grace = l->numberOr("grace", -1);
  }
  if (const json::Value* o = h->get("openings")) {
    const std::string kind = o->stringOr("kind", "none");
    s.openings.kind = kind == "file"     ? OpeningSettings::Kind::File
                      : kind == "random" ? OpeningSettings::Kind::Random
                                         : OpeningSettings::Kind::None;
    s.openings.file = o->stringOr("file", "");
    s.openings.fileHash = std::strtoull(o->stringOr("hash", "0").c_str(), nullptr, 10);
    s.openings.seed = std::strtoull(o->stringOr("seed", "0").c_str(), nullptr, 10);
    std::string ignored;
    if (s.openings.kind == OpeningSettings::Kind::Random)
      parsePlyRange(o->stringOr("plies", ""), s.openings.minPlies, s.openings.maxPlies, ignored);
  }
  s.gamesPerPairing = int(h->numberOr("games_per_pairing", 0));
  return true;
}

// What differs between the recorded set-up and the one asked for now, one sentence per item.
inline std::vector<std::string> setUpDifferences(const SetUp& recorded, const SetUp& now) {
  std::vector<std::string> d;
  auto differ = [&](const std::string& what, const std::string& was, const std::string& is) {
    if (was != is) d.push_back(what + ": recorded " + was + ", now " + is);
  };
  differ("mode", recorded.mode, now.mode);
  differ("number of bots", std::to_string(recorded.bots.size()), std::to_string(now.bots.size()));
  for (size_t i = 0; i < recorded.bots.size() && i < now.bots.size(); ++i) {
    differ("bot " + std::to_string(i + 1) + " name", "'" + recorded.bots[i].name + "'", "'" + now.bots[i].name + "'");
    differ("bot " + std::to_string(i + 1) + " command", "'" + recorded.bots[i].command + "'",
           "'" + now.bots[i].command + "'");
  }
  differ("--first-time-ms", json::number(recorded.limits.firstTurnMs, 6), json::number(now.limits.firstTurnMs, 6));
  differ("--time-ms", json::number(recorded.limits.turnMs, 6), json::number(now.limits.turnMs, 6));
  differ("--grace", json::number(recorded.limits.grace, 6), json::number(now.limits.grace, 6));
  differ("openings", recorded.openings.describe(), now.openings.describe());
  if (recorded.openings.kind == OpeningSettings::Kind::File && now.openings.kind == OpeningSettings::Kind::File &&
      recorded.openings.fileHash != now.openings.fileHash)
    d.push_back("openings file content: changed since the record was made");
  return d;
}

}  // namespace yav::arena
