// build/bin/arena and build/bin/viewer end to end: a short match with fake bots, the JSON summary,
// the game records, openings, --resume, usage errors, Ctrl-C (summary so far, no bot left behind).
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "tools/arena/json.h"
#include "tools/arena/record.h"
#include "tools/arena/setup.h"
#include "tests/test_util.h"

using namespace yav;
using namespace yav::arena;

namespace {

const std::string kBin = YAVALATH_BIN_DIR;
// The fake bot as one quoted argument of an arena command line.
std::string fakeArg(const std::string& args) { return "'" + kBin + "/fake_bot " + args + "'"; }
// The fake bot under a name of its own (NAME=COMMAND).
std::string named(const std::string& name, const std::string& args) {
  return "'" + name + "=" + kBin + "/fake_bot " + args + "'";
}

CommandRun run(const std::string& command) { return runCommand(command + " 2>&1"); }

json::Value readJson(const std::string& path) {
  json::Value v;
  std::string error;
  EXPECT_TRUE(json::parse(readFile(path), v, error)) << error;
  return v;
}

std::vector<GameRecord> readRecords(const std::string& path) {
  std::vector<GameRecord> records;
  std::istringstream in(readFile(path));
  std::string line, error;
  while (std::getline(in, line)) {
    if (isRecordHeader(line)) continue;
    GameRecord r;
    EXPECT_TRUE(recordFromJson(line, r, error)) << error;
    records.push_back(r);
  }
  return records;
}

// CodinGame's limits with a grace no answer misses unless its bot hangs (a loaded machine may
// pause a fake bot for a while): 2 s a later turn, 20 s the first.
const std::string kFast = " --time-ms 100 --first-time-ms 1000 --grace 20 --quiet ";

}  // namespace

// JSON's \u escape takes exactly four hexadecimal digits: anything else is a parse error, never an
// exception out of the reader (std::stoul threw on "\uZZZZ" in a record line and stopped the arena).
TEST(ArenaJson, UnicodeEscapesTakeFourHexDigits) {
  json::Value v;
  std::string error;
  ASSERT_TRUE(json::parse("\"a\\u0041\\u004a\"", v, error)) << error;
  EXPECT_EQ(v.str, "aAJ");
  for (const char* bad : {"\"\\uZZZZ\"", "\"\\u00G1\"", "\"\\u 041\"", "\"\\u-041\"", "\"\\u+041\"", "\"\\u04\""})
    EXPECT_FALSE(json::parse(bad, v, error)) << bad;
}

TEST(ArenaCli, MatchAgainstGarbageBotWritesJsonAndRecords) {
  const std::string json = scratchPath("garbage.json"), rec = scratchPath("garbage.jsonl");
  CommandRun r = run(kBin + "/arena --games 4 --jobs 2" + kFast + "--json " + json + " --record " + rec + " " +
                     fakeArg("legal --seed 3") + " " + fakeArg("garbage --turn 2"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("A: W 4  D 0  L 0"), std::string::npos) << r.out;
  json::Value v = readJson(json);
  EXPECT_EQ(v.numberOr("games", -1), 4);
  EXPECT_EQ(v.numberOr("wins", -1), 4);
  EXPECT_EQ(v.numberOr("draws", -1), 0);
  EXPECT_EQ(v.numberOr("losses", -1), 0);
  EXPECT_EQ(v.numberOr("score", -1), 1.0);
  ASSERT_NE(v.get("elo"), nullptr);
  ASSERT_NE(v.get("elo_ci95"), nullptr);
  EXPECT_EQ(v.get("reasons")->get("bad_output")->numberOr("lost_by_b", -1), 4);
  const json::Value* pent = v.get("pentanomial");
  ASSERT_NE(pent, nullptr);
  EXPECT_EQ(pent->items[4].num, 2);
  std::vector<GameRecord> records = readRecords(rec);
  ASSERT_EQ(records.size(), 4u);
  for (const auto& g : records) {
    EXPECT_EQ(g.resultName(), "A");
    EXPECT_EQ(g.result.reason, Reason::BadOutput);
    EXPECT_EQ(g.result.finalAnswer, "hello");
    EXPECT_EQ(g.seatOfA, g.game % 2);  // seats swap inside each pair
  }
}

TEST(ArenaCli, OpeningsStartBothGamesOfAPairAlike) {
  const std::string openings = scratchPath("openings.txt"), rec = scratchPath("openings.jsonl");
  std::ofstream(openings) << "# test openings\n4 4\n0 0; 3 3\n";
  CommandRun r = run(kBin + "/arena --games 4" + kFast + "--openings " + openings + " --record " + rec + " " +
                     fakeArg("legal --seed 1") + " " + fakeArg("legal --seed 2"));
  ASSERT_EQ(r.status, 0) << r.out;
  std::vector<GameRecord> records = readRecords(rec);
  ASSERT_EQ(records.size(), 4u);
  for (const auto& g : records) {
    if (g.pair == 0) {
      EXPECT_EQ(g.result.openingPlies, 1);
      EXPECT_EQ(g.result.moves[0].cell, cellAt(4, 4));
    } else {
      EXPECT_EQ(g.result.openingPlies, 2);
      EXPECT_EQ(g.result.moves[1].cell, cellAt(3, 3));
    }
  }
  // A bad openings file is a usage error naming the line.
  std::ofstream(openings) << "4 4\n9 9\n";
  r = run(kBin + "/arena --games 2" + kFast + "--openings " + openings + " x y");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(":2: (9,9) is off the board"), std::string::npos) << r.out;
}

TEST(ArenaCli, RandomOpeningsAreSharedByAPairAndRepeatWithTheSeed) {
  const std::string rec1 = scratchPath("random1.jsonl"), rec2 = scratchPath("random2.jsonl"),
                    json = scratchPath("random.json");
  const std::string bots = " " + fakeArg("legal --seed 1") + " " + fakeArg("legal --seed 2");
  CommandRun r = run(kBin + "/arena --games 8 --random-openings 1-2 --seed 7" + kFast + "--json " + json +
                     " --record " + rec1 + bots);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Openings: random, 1-2 plies, seed 7"), std::string::npos) << r.out;
  EXPECT_EQ(readJson(json).get("openings")->stringOr("seed", ""), "7");
  r = run(kBin + "/arena --games 8 --jobs 2 --random-openings 1-2 --seed 7" + kFast + "--record " + rec2 + bots);
  ASSERT_EQ(r.status, 0) << r.out;
  std::map<int, std::vector<Cell>> first, second;
  auto openingOf = [](const GameRecord& g) {
    std::vector<Cell> o;
    for (int i = 0; i < g.result.openingPlies; ++i) o.push_back(g.result.moves[size_t(i)].cell);
    return o;
  };
  std::set<size_t> lengths;
  for (const auto& g : readRecords(rec1)) {
    const std::vector<Cell> o = openingOf(g);
    lengths.insert(o.size());
    if (first.count(g.pair)) {
      EXPECT_EQ(first[g.pair], o) << "pair " << g.pair;  // both games alike
    }
    first[g.pair] = o;
  }
  for (const auto& g : readRecords(rec2)) second[g.pair] = openingOf(g);
  EXPECT_EQ(first.size(), 4u);
  EXPECT_EQ(first, second);  // same seed, other job count: same openings
  for (size_t n : lengths) EXPECT_TRUE(n == 1 || n == 2);
  // Without --seed a fresh seed is drawn and printed.
  r = run(kBin + "/arena --games 2 --random-openings 3 --no-record" + kFast + bots);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("(repeat with --seed "), std::string::npos) << r.out;
  // Bad combinations are usage errors.
  r = run(kBin + "/arena --seed 3 --empty-board a b");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--seed applies to random openings"), std::string::npos) << r.out;
  r = run(kBin + "/arena --empty-board --random-openings 2 a b");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--empty-board excludes"), std::string::npos) << r.out;
  r = run(kBin + "/arena --random-openings 2 --openings x a b");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("exclude each other"), std::string::npos) << r.out;
  r = run(kBin + "/arena --random-openings 41 a b");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("K1-K2"), std::string::npos) << r.out;
}

TEST(ArenaCli, TwoStoneOpeningsFileIsAccepted) {
  const std::string rec = scratchPath("two_stone.jsonl");
  CommandRun r =
      run(kBin + "/arena --games 4 --openings " + std::string(YAVALATH_SOURCE_DIR) + "/tools/openings/two_stone.txt" +
          kFast + "--record " + rec + " " + fakeArg("legal") + " " + fakeArg("legal"));
  ASSERT_EQ(r.status, 0) << r.out;
  for (const auto& g : readRecords(rec)) {
    EXPECT_EQ(g.result.openingPlies, 2);
    EXPECT_EQ(g.result.moves[0].cell, cellAt(0, 0));
  }
}

TEST(ArenaCli, ResumeContinuesARecordedMatch) {
  const std::string rec = scratchPath("resume.jsonl"), json = scratchPath("resume.json");
  CommandRun r = run(kBin + "/arena --games 2" + kFast + "--record " + rec + " " + fakeArg("legal") + " " +
                     fakeArg("crash --turn 3"));
  ASSERT_EQ(r.status, 0) << r.out;
  r = run(kBin + "/arena --games 4 --resume" + kFast + "--record " + rec + " --json " + json + " " + fakeArg("legal") +
          " " + fakeArg("crash --turn 3"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("resuming with 2 finished games"), std::string::npos) << r.out;
  EXPECT_EQ(readRecords(rec).size(), 4u);
  json::Value v = readJson(json);
  EXPECT_EQ(v.numberOr("games", -1), 4);
  EXPECT_EQ(v.get("reasons")->get("crash")->numberOr("lost_by_b", -1), 4);
}

TEST(ArenaCli, BotThatCannotStartStopsTheMatch) {
  // A typo in the command: the shell exits 127 with "not found" on stderr.
  CommandRun r =
      run(kBin + "/arena --games 20 --jobs 2" + kFast + "--no-record " + fakeArg("legal") + " '" + kBin + "/bott'");
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_NE(r.out.find("bot bott ('" + kBin + "/bott') failed on its first turn"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exit code 127"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not found"), std::string::npos) << r.out;  // its stderr is shown
  EXPECT_EQ(r.out.find("Games:"), std::string::npos) << r.out;     // no report of a meaningless match
  // A bot that dies on its first turn (here after writing a line on stderr), as A.
  r = run(kBin + "/arena --games 20" + kFast + "--no-record " + fakeArg("exit --turn 1") + " " + fakeArg("legal"));
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_NE(r.out.find("bot fake_bot-A"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fake_bot exit turn 1"), std::string::npos) << r.out;
  // A bot that played a turn before crashing only loses the game.
  r = run(kBin + "/arena --games 4" + kFast + "--no-record " + fakeArg("legal") + " " + fakeArg("crash --turn 2"));
  EXPECT_EQ(r.status, 0) << r.out;
}

TEST(ArenaCli, RecordStartsWithTheSetUp) {
  const std::string rec = scratchPath("header.jsonl");
  CommandRun r = run(kBin + "/arena --games 2 --random-openings 2 --seed 9" + kFast + "--record " + rec + " " +
                     fakeArg("legal") + " " + fakeArg("first"));
  ASSERT_EQ(r.status, 0) << r.out;
  std::istringstream in(readFile(rec));
  std::string first;
  std::getline(in, first);
  ASSERT_TRUE(isRecordHeader(first)) << first;
  json::Value v;
  std::string error;
  ASSERT_TRUE(json::parse(first, v, error)) << error;
  const json::Value* h = v.get("record_header");
  EXPECT_EQ(h->stringOr("arena_version", ""), kArenaVersion);
  EXPECT_EQ(h->stringOr("date", "").size(), 20u);  // 2026-01-31T12:00:00Z
  EXPECT_EQ(h->stringOr("mode", ""), "match");
  ASSERT_EQ(h->get("bots")->items.size(), 2u);
  EXPECT_EQ(h->get("bots")->items[1].stringOr("command", ""), kBin + "/fake_bot first");
  EXPECT_EQ(h->get("limits")->numberOr("turn_ms", -1), 100);
  EXPECT_EQ(h->get("limits")->numberOr("grace", -1), 20);
  EXPECT_EQ(h->get("openings")->stringOr("seed", ""), "9");
  EXPECT_EQ(h->get("openings")->stringOr("plies", ""), "2");
  EXPECT_EQ(readRecords(rec).size(), 2u);
}

TEST(ArenaCli, ResumeRefusesAnotherSetUp) {
  const std::string rec = scratchPath("resume_setup.jsonl");
  const std::string bots = " " + fakeArg("legal --seed 1") + " " + fakeArg("legal --seed 2");
  CommandRun r = run(kBin + "/arena --games 2 --random-openings 1-3 --seed 5" + kFast + "--record " + rec + bots);
  ASSERT_EQ(r.status, 0) << r.out;
  r = run(kBin +
          "/arena --games 4 --resume --random-openings 1-3 --seed 5 --time-ms 50 --first-time-ms 1000 --grace 2 "
          "--quiet --record " +
          rec + " " + fakeArg("legal --seed 1") + " " + fakeArg("legal --seed 3"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("was made with a different set-up"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--time-ms: recorded 100, now 50"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bot 2 command: recorded '" + kBin + "/fake_bot legal --seed 2', now '" + kBin +
                       "/fake_bot legal --seed 3'"),
            std::string::npos)
      << r.out;
  r = run(kBin + "/arena --games 4 --resume --random-openings 1-3 --seed 6" + kFast + "--record " + rec + bots);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("openings: recorded random, 1-3 plies, seed 5, now random, 1-3 plies, seed 6"),
            std::string::npos)
      << r.out;
  // Without --seed the recorded seed is used: the resumed games get the openings of an unbroken run.
  r = run(kBin + "/arena --games 6 --resume --random-openings 1-3" + kFast + "--record " + rec + bots);
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string full = scratchPath("resume_full.jsonl");
  r = run(kBin + "/arena --games 6 --random-openings 1-3 --seed 5" + kFast + "--record " + full + bots);
  ASSERT_EQ(r.status, 0) << r.out;
  std::map<int, std::vector<Cell>> resumed, unbroken;
  for (const auto& g : readRecords(rec)) resumed[g.game] = std::vector<Cell>{g.result.moves.front().cell};
  for (const auto& g : readRecords(full)) unbroken[g.game] = std::vector<Cell>{g.result.moves.front().cell};
  EXPECT_EQ(resumed.size(), 6u);
  EXPECT_EQ(resumed, unbroken);
  // A record without a header (an older arena) is refused.
  const std::string old = scratchPath("resume_old.jsonl");
  std::ofstream(old) << readFile(rec).substr(readFile(rec).find('\n') + 1);
  r = run(kBin + "/arena --games 8 --resume --random-openings 1-3 --seed 5" + kFast + "--record " + old + bots);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("has no set-up header"), std::string::npos) << r.out;
}

TEST(ArenaCli, RoundRobinAndGauntletTournaments) {
  const std::string json = scratchPath("tournament.json"), rec = scratchPath("tournament.jsonl");
  const std::string bots = " legal='" + kBin + "/fake_bot legal' first='" + kBin + "/fake_bot first' garbage='" + kBin +
                           "/fake_bot garbage --turn 2'";
  CommandRun r = run(kBin + "/arena --tournament round-robin --games 4 --jobs 2 --random-openings 1 --seed 2" + kFast +
                     "--json " + json + " --record " + rec + bots);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Tournament (round-robin): 3 bots, 3 pairings, 12 games"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Cross table"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("legal = 0"), std::string::npos) << r.out;
  json::Value v = readJson(json);
  ASSERT_EQ(v.get("pairings")->items.size(), 3u);
  ASSERT_EQ(v.get("bots")->items.size(), 3u);
  const json::Value& garbage = v.get("bots")->items[2];
  EXPECT_EQ(garbage.stringOr("name", ""), "garbage");
  EXPECT_EQ(garbage.numberOr("points", -1), 0);  // loses every game by bad output
  EXPECT_EQ(garbage.get("lost_by")->numberOr("bad_output", -1), 8);
  EXPECT_LT(garbage.numberOr("elo", 0), v.get("bots")->items[1].numberOr("elo", 0));
  EXPECT_EQ(v.get("bots")->items[0].numberOr("elo", -1), 0);  // the anchor
  const json::Value& first = v.get("pairings")->items[0];
  EXPECT_EQ(first.stringOr("a", ""), "legal");
  EXPECT_EQ(first.stringOr("b", ""), "first");
  EXPECT_EQ(first.numberOr("games", -1), 4);
  std::vector<GameRecord> records = readRecords(rec);
  ASSERT_EQ(records.size(), 12u);
  std::set<std::pair<std::string, std::string>> met;
  for (const auto& g : records) met.insert({g.nameA, g.nameB});
  EXPECT_EQ(met.size(), 3u);
  // Resuming the tournament plays only what is missing.
  r = run(kBin + "/arena --tournament round-robin --games 6 --resume --random-openings 1 --seed 2" + kFast +
          "--record " + rec + bots);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("resuming with 12 finished games"), std::string::npos) << r.out;
  EXPECT_EQ(readRecords(rec).size(), 18u);
  // Gauntlet: the first bot against each other one.
  r = run(kBin + "/arena --tournament gauntlet --games 2" + kFast + "--no-record --json " + json + bots);
  ASSERT_EQ(r.status, 0) << r.out;
  v = readJson(json);
  ASSERT_EQ(v.get("pairings")->items.size(), 2u);
  for (const auto& p : v.get("pairings")->items) EXPECT_EQ(p.stringOr("a", ""), "legal");
  // Usage errors.
  r = run(kBin + "/arena --tournament round-robin a=x b");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("expected a bot as NAME=COMMAND"), std::string::npos) << r.out;
  r = run(kBin + "/arena --tournament round-robin a=x a=y");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("two bots are named 'a'"), std::string::npos) << r.out;
  r = run(kBin + "/arena --tournament swiss a=x b=y");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(run(kBin + "/arena --tournament gauntlet --sprt a=x b=y").status, 2);
}

TEST(ArenaCli, SprtStopsEarly) {
  const std::string json = scratchPath("sprt.json");
  // B loses every game at once; with elo1 = 100 each won pair adds ln(s1 / s0) = 0.247 to the LLR:
  // 12 pairs reach the bound 2.944 (see test_arena_sprt).
  CommandRun r = run(kBin + "/arena --games 200 --sprt elo0=0,elo1=100" + kFast + "--no-record --json " + json + " " +
                     fakeArg("legal") + " " + fakeArg("garbage --turn 1"));
  ASSERT_EQ(r.status, 0) << r.out;
  json::Value v = readJson(json);
  EXPECT_LT(v.numberOr("games", 1000), 200);
  EXPECT_EQ(v.get("sprt")->stringOr("decision", ""), "H1");
  EXPECT_EQ(v.numberOr("games", -1), 24);
  EXPECT_EQ(v.get("sprt")->stringOr("elo_model", ""), "logistic");
  EXPECT_NE(r.out.find("SPRT (pentanomial GSPRT, logistic Elo) elo0 0.0 elo1 100.0"), std::string::npos) << r.out;
}

// Every flag of a tool's --help states its default (one entry: from a "  --flag" line to the next).
void expectEveryFlagHasADefault(const std::string& tool) {
  const CommandRun r = run(kBin + "/" + tool + " --help");
  ASSERT_EQ(r.status, 0) << tool << ": " << r.out;
  std::istringstream in(r.out);
  std::vector<std::string> entries;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("  --", 0) == 0)
      entries.push_back(line);
    else if (!entries.empty() && line.rfind("    ", 0) == 0)
      entries.back() += line;
  }
  EXPECT_GE(entries.size(), 5u) << tool;
  for (const std::string& e : entries) {
    if (e.rfind("  --help", 0) == 0) continue;
    EXPECT_NE(e.find("default"), std::string::npos) << tool << ": " << e;
  }
}

TEST(ArenaCli, EveryToolHelpStatesEachFlagsDefault) {
  expectEveryFlagHasADefault("arena");
  expectEveryFlagHasADefault("viewer");
  expectEveryFlagHasADefault("search_match");
  expectEveryFlagHasADefault("sprt_sim");
  expectEveryFlagHasADefault("bench");
  expectEveryFlagHasADefault("tactics");
  expectEveryFlagHasADefault("bot");
  CommandRun r = run(kBin + "/search_match --games x --iterations 5");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--games expects a number >= 1, got 'x'"), std::string::npos) << r.out;
  r = run(kBin + "/search_match --iterations 5 --a c=abc");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("config key 'c' expects a number, got 'abc'"), std::string::npos) << r.out;
}

// Ctrl-C (here SIGTERM) stops search_match: the games begun finish and the score is of the games
// finished, said so, with status 130.
TEST(ArenaCli, AnInterruptedSearchMatchReportsTheGamesFinished) {
  const CommandRun r =
      run("timeout --preserve-status -s TERM 1 " + kBin + "/search_match --iterations 100 --games 100000 --jobs 2");
  EXPECT_EQ(r.status, 130) << r.out;
  unsigned a = 0, b = 0, draws = 0, done = 0, shown = 0, total = 0;
  const size_t at = r.out.find("\nA ");
  ASSERT_NE(at, std::string::npos) << r.out;
  ASSERT_EQ(std::sscanf(r.out.c_str() + at, "\nA %u  B %u  draws %u  of %u:", &a, &b, &draws, &done), 4) << r.out;
  EXPECT_GT(done, 0u);
  EXPECT_EQ(a + b + draws, done);
  const size_t note = r.out.find("stopped by a signal after ");
  ASSERT_NE(note, std::string::npos) << r.out;
  ASSERT_EQ(std::sscanf(r.out.c_str() + note, "stopped by a signal after %u of %u games", &shown, &total), 2) << r.out;
  EXPECT_EQ(shown, done);
  EXPECT_EQ(total, 100000u);
}

TEST(ArenaCli, UsageErrors) {
  EXPECT_EQ(run(kBin + "/arena").status, 2);
  EXPECT_EQ(run(kBin + "/arena --games 0 a b").status, 2);
  EXPECT_EQ(run(kBin + "/arena --bogus a b").status, 2);
  CommandRun r = run(kBin + "/arena --games x a b");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--games expects a number"), std::string::npos) << r.out;
  EXPECT_EQ(run(kBin + "/arena --help").status, 0);
  r = run(kBin + "/arena --games 2 --jobs 512" + kFast + "--no-record " + fakeArg("legal") + " " + fakeArg("legal"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("warning: --jobs 512 exceeds the"), std::string::npos) << r.out;
}

// bench --config measures another search configuration's iterations and names it; a bad one is
// a usage error. The endgame solver is timed on the positions of 21-28 empty cells of --endgame
// (here one lost endgame of 27 empty cells, before and after its move: two positions, both
// solved); a suite without such a position is an error, not a figure of nothing.
TEST(ArenaCli, BenchMeasuresTheSearchConfigurationItIsGiven) {
  const std::string position = std::string(YAVALATH_SOURCE_DIR) + "/tests/data/bench_midgame_id2.txt";
  const std::string endgame = scratchPath("bench_endgame.txt");
  std::ofstream(endgame) << "defence 026600822ada0024 14004b20d5209880 0 4 25\n";
  const std::string quick = kBin + "/bench --seconds 0.01 --endgame " + endgame + " --mcts " + position;
  CommandRun r = run(quick + " --config noforcing,rave=3000");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("iterations/s (config 'noforcing,rave=3000', "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(2 positions of " + endgame + " with 21-28 empty cells, <= 100000 nodes; 100.0% solved"),
            std::string::npos)
      << r.out;
  r = run(quick);
  EXPECT_NE(r.out.find("iterations/s (the bot's search, "), std::string::npos) << r.out;
  r = run(kBin + "/bench --config bogus");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("unknown config key 'bogus'"), std::string::npos) << r.out;
  std::ofstream(endgame) << "defence 0000000000000000 0000000000000000 0 30 9\n";  // the empty board only
  r = run(quick);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("has no position of 21-28 empty cells"), std::string::npos) << r.out;
  std::remove(endgame.c_str());
}

TEST(ArenaCli, InterruptPrintsSummaryAndLeavesNoBot) {
  const std::string pidfile = scratchPath("interrupt.pids"), out = scratchPath("interrupt.out");
  std::remove(pidfile.c_str());
  const std::string command = kBin + "/arena --games 10 --jobs 2 --first-time-ms 30000 --quiet --no-record " +
                              fakeArg("timeout --pidfile " + pidfile) + " " + fakeArg("timeout --pidfile " + pidfile) +
                              " > " + out + " 2>&1";
  pid_t pid = 0;
  const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
  // exec so that the pid is the arena's own: 'exec' in the shell command.
  const std::string execCommand = "exec " + command;
  argv[2] = execCommand.c_str();
  ASSERT_EQ(posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ), 0);
  // Wait until both games' first bots run, then Ctrl-C.
  waitFor([&] {
    std::istringstream pids(readFile(pidfile));
    int count = 0;
    for (pid_t p; pids >> p;) ++count;
    return count >= 2;
  });
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const std::string text = readFile(out);
  EXPECT_NE(text.find("[INTERRUPTED]"), std::string::npos) << text;
  EXPECT_NE(text.find("aborted, not counted"), std::string::npos) << text;
  std::istringstream pids(readFile(pidfile));
  int count = 0;
  for (pid_t p; pids >> p; ++count) {
    const bool gone = waitFor(
        [&] {
          std::ifstream stat("/proc/" + std::to_string(p) + "/stat");
          std::string s;
          std::getline(stat, s);
          return s.empty() || s.find(") Z") != std::string::npos;
        },
        30);
    EXPECT_TRUE(gone) << "bot pid " << p << " survived the interrupt";
  }
  EXPECT_GE(count, 2);
}

std::string viewMoves(const std::string& args) { return run(kBin + "/viewer --moves " + args).out; }

TEST(ArenaCli, ViewerShowsAndRendersARecordedGame) {
  const std::string rec = scratchPath("viewer.jsonl"), svg = scratchPath("viewer.svg");
  CommandRun r = run(kBin + "/arena --games 2 --empty-board" + kFast + "--record " + rec + " " +
                     named("A", "legal --seed 5") + " " + named("B", "steal --seed 6"));
  ASSERT_EQ(r.status, 0) << r.out;
  r = run(kBin + "/viewer " + rec + " --game 0");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("ply 2: O (B) plays"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(steal)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("result: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("y=4   "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("X = A '" + kBin + "/fake_bot legal --seed 5' (moves first), O = B"), std::string::npos)
      << r.out;
  r = run(kBin + "/viewer " + rec + " --game 0 --svg " + svg);
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string image = readFile(svg);
  EXPECT_EQ(image.substr(0, 4), "<svg");
  EXPECT_EQ(std::count(image.begin(), image.end(), '\n') > 61, true);
  EXPECT_NE(image.find("</svg>"), std::string::npos);
  EXPECT_NE(image.find("X (black) = A '" + kBin + "/fake_bot legal --seed 5', moves first"), std::string::npos);
  EXPECT_NE(image.find(">S</text>"), std::string::npos);                 // the steal mark
  EXPECT_NE(image.find("stroke-dasharray"), std::string::npos);          // on the stolen stone
  EXPECT_NE(image.find(">1</text>"), std::string::npos);                 // which keeps number 1
  EXPECT_NE(image.find(">y=8</text>"), std::string::npos);               // edge coordinates
  EXPECT_NE(image.find("stroke-linecap=\"round\""), std::string::npos);  // the deciding line
  EXPECT_NE(image.find("class=\"last-move\""), std::string::npos);       // the last move's own mark
  EXPECT_NE(image.find("orange tag: last move"), std::string::npos);
  EXPECT_NE(image.find("game over"), std::string::npos);
  // A position from a move list, as ASCII: X at (4,4) taken by O through the steal (Q), then X at (3,3).
  r = run(kBin + "/viewer --moves '4 4; 4 4; 3 3' --ply 3");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("y=4   . . . . Q . . . ."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("y=3    . . .[X]. . . ."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("x=        0 1 2 3 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("after 3 plies: O to move"), std::string::npos) << r.out;
  EXPECT_NE(viewMoves("'4 4' --ply 1").find("after 1 ply: O to move, may steal"), std::string::npos);
  // The line of 3 that lost, in lowercase: X (1,1) (2,2) (3,3) after the steal of (4,4).
  const std::string lost = viewMoves("'4 4; 4 4; 3 3; 5 5; 2 2; 0 0; 1 1' --ply 7");
  EXPECT_NE(lost.find("y=1      .[x]. . . ."), std::string::npos) << lost;
  EXPECT_NE(lost.find("y=2     . . x . . . ."), std::string::npos) << lost;
  EXPECT_NE(lost.find("lowercase = the line of 3 that lost"), std::string::npos) << lost;
  EXPECT_NE(lost.find("game over"), std::string::npos) << lost;
  EXPECT_EQ(run(kBin + "/viewer " + rec + " --game 99").status, 2);
}

TEST(ArenaCli, BotStderrIsKeptPerGameWhenAsked) {
  const std::string dir = scratchPath("stderr_logs");
  CommandRun r = run(kBin + "/arena --games 2 --empty-board" + kFast + "--no-record --stderr-dir " + dir + " " +
                     named("A", "legal") + " " + named("B", "first"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(readFile(dir + "/game-0-A.log").find("fake_bot legal turn 1"), std::string::npos);
  EXPECT_NE(readFile(dir + "/game-1-B.log").find("fake_bot first turn 1"), std::string::npos);
}

TEST(ArenaCli, RepeatedGamesAreFoundAndTheDefaultStartVaries) {
  // The search bot at fixed iterations is deterministic: from the empty board it replays the same
  // two games; from the default random 1-2-ply openings every game differs. Without its book: each
  // bot's first turn decodes the book, which under the sanitizers took two thirds of the test.
  const std::string bot = "'" + kBin + "/bot --iterations 500 --no-book'";
  const std::string empty = scratchPath("repeat_empty.json"), varied = scratchPath("repeat_varied.json");
  // Limits far above what 500 iterations take: a timeout would end a game early and break the
  // repeat (under ASan on a loaded machine the first turn, book decoding included, took 1.9 s).
  const std::string kSlack = " --time-ms 5000 --first-time-ms 20000 --quiet ";
  CommandRun r =
      run(kBin + "/arena --games 6 --empty-board --no-record --json " + empty + kSlack + "new=" + bot + " old=" + bot);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Repeated games: 4 of 6 repeat an earlier game"), std::string::npos) << r.out;
  json::Value v = readJson(empty);
  ASSERT_NE(v.get("repeated_games"), nullptr);
  EXPECT_EQ(v.get("repeated_games")->num, 4);
  ASSERT_EQ(v.get("repeats")->items.size(), 4u);
  EXPECT_EQ(v.get("repeats")->items[0].numberOr("same_as", -1), 0);
  r = run(kBin + "/arena --games 6 --seed 3 --no-record --json " + varied + kSlack + bot + " " + bot);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Openings: random, 1-2 plies, seed 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Repeated games: 0 of 6"), std::string::npos) << r.out;
  EXPECT_EQ(readJson(varied).get("repeated_games")->num, 0);
  EXPECT_NE(r.out.find("Match: A = bot-A ("), std::string::npos) << r.out;  // two bots of one program
}

TEST(ArenaCli, OneLinePerFinishedGameWithTheBotsNames) {
  CommandRun r =
      run(kBin + "/arena --games 2 --empty-board --no-record --time-ms 100 --first-time-ms 1000 --grace 20 " +
          named("new", "legal --seed 1") + " " + fakeArg("garbage --turn 2"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("game 0: new (x) beats fake_bot (o), fake_bot gave bad output, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("game 1: new (o) beats fake_bot (x), fake_bot gave bad output, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Match: A = new ("), std::string::npos) << r.out;
}

TEST(ArenaCli, RecordOptionsAreCheckedBeforeAnyGame) {
  // A bot that leaves a mark when it is started: no mark, no game.
  const std::string mark = scratchPath("started_mark");
  std::remove(mark.c_str());
  const std::string bots = " 'touch " + mark + "' 'touch " + mark + "'";
  CommandRun r = run(kBin + "/arena --no-record --record " + scratchPath("x.jsonl") + bots);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--no-record and --record exclude each other"), std::string::npos) << r.out;
  r = run(kBin + "/arena --resume --record " + scratchPath("no_such_dir") + "/x.jsonl" + bots);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("cannot write --record"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("No such file or directory"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("resuming"), std::string::npos) << r.out;
  r = run(kBin + "/arena --json " + scratchPath("no_such_dir") + "/x.json" + bots);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("cannot write --json"), std::string::npos) << r.out;
  EXPECT_FALSE(std::ifstream(mark).good()) << "a bot was started";
}
