// arena: plays a match between two CodinGame-protocol bots and reports the result with statistics.
//   build/bin/arena [options] [NAME=]'COMMAND A' [NAME=]'COMMAND B'
// See docs/arena.md. Exit status 0 when the match ran (whatever the score), 2 on usage errors.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "tools/arena/match.h"
#include "tools/arena/openings.h"
#include "tools/arena/record_file.h"
#include "tools/arena/setup.h"
#include "tools/arena/tournament.h"
#include "tools/common/cli.h"
#include "tools/common/stop_signal.h"

using namespace yav;
using namespace yav::arena;

namespace {

const char* const kUsage = R"(usage: arena [options] [NAME=]'COMMAND A' [NAME=]'COMMAND B'
       arena --tournament round-robin|gauntlet [options] NAME=COMMAND NAME=COMMAND...
Plays games between bots speaking the CodinGame Yavalath protocol (each command runs via
/bin/sh -c, a fresh process per game). Two bots: a match, results from A's point of view; a bot
without NAME= is named after its program. Games start from random 1-2-ply openings by default.
Exit status: 0 played, 2 usage error, 3 a bot failed before its first answer, 130 interrupted.
)";

[[noreturn]] void usageError(const std::string& message) { cli::Flags("arena").fail(message); }

double parseNumber(const std::string& option, const std::string& text, double min) {
  double v = 0;
  if (!cli::toNumber(text, min, cli::kNoMax, v)) usageError(cli::Flags::rangeError(option, min, cli::kNoMax, text));
  return v;
}

struct Options {
  std::string commandA, commandB;  // a two-bot match
  std::string tournament;          // "round-robin" or "gauntlet"
  std::vector<BotSpec> bots;       // the tournament's bots
  int games = -1, jobs = 1;
  Limits limits;
  std::string recordFile, jsonFile, stderrDir;
  OpeningSettings openings;
  bool seedGiven = false;
  bool noRecord = false, resume = false, quiet = false, emptyBoard = false;
  SprtConfig sprt;
};

void parseSprt(const std::string& spec, SprtConfig& cfg) {
  cfg.enabled = true;
  std::string item;
  std::istringstream in(spec);
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    size_t eq = item.find('=');
    if (eq == std::string::npos)
      usageError("--sprt expects key=value items (elo0, elo1, alpha, beta), got '" + item + "'");
    std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "elo0")
      cfg.elo0 = parseNumber("--sprt elo0", value, -2000);
    else if (key == "elo1")
      cfg.elo1 = parseNumber("--sprt elo1", value, -2000);
    else if (key == "alpha")
      cfg.alpha = parseNumber("--sprt alpha", value, 1e-9);
    else if (key == "beta")
      cfg.beta = parseNumber("--sprt beta", value, 1e-9);
    else
      usageError("--sprt: unknown key '" + key + "' (expected elo0, elo1, alpha, beta)");
  }
  if (cfg.alpha >= 0.5 || cfg.beta >= 0.5) usageError("--sprt: alpha and beta must be below 0.5");
  if (cfg.elo1 <= cfg.elo0) usageError("--sprt: elo1 must be greater than elo0");
}

bool isSafeName(const std::string& name) {
  bool safe = !name.empty();
  for (char c : name) safe = safe && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-');
  return safe;
}

// "name=command"; names are unique and safe in file names. In a match the name is optional.
BotSpec parseNamedBot(const std::string& text, const std::vector<BotSpec>& earlier) {
  const size_t eq = text.find('=');
  const std::string name = text.substr(0, eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || !isSafeName(name) || eq + 1 == text.size())
    usageError("expected a bot as NAME=COMMAND (NAME: letters, digits, . _ -), got '" + text + "'");
  for (const BotSpec& b : earlier)
    if (b.name == name) usageError("two bots are named '" + name + "'");
  return {name, text.substr(eq + 1)};
}

// A match's bot: NAME=COMMAND, or the command alone, named after its program's file name
// ("build/bin/bot --iterations 300" -> "bot"); two equal names become NAME-A and NAME-B.
std::vector<BotSpec> matchBots(const std::string& a, const std::string& b) {
  auto one = [](const std::string& text) -> BotSpec {
    const size_t eq = text.find('=');
    if (eq != std::string::npos && isSafeName(text.substr(0, eq)) && eq + 1 < text.size())
      return {text.substr(0, eq), text.substr(eq + 1)};
    std::string program = text.substr(0, text.find_first_of(" \t"));
    program = program.substr(program.find_last_of('/') + 1);
    std::string name;
    for (char c : program) name += isSafeName(std::string(1, c)) ? c : '_';
    return {name.empty() ? "bot" : name, text};
  };
  std::vector<BotSpec> bots = {one(a), one(b)};
  if (bots[0].name == bots[1].name) bots[0].name += "-A", bots[1].name += "-B";
  return bots;
}

// Fails (usage error) unless `path` can be written: an existing writable file, or a new one in a
// writable directory. Checked before any game, so that no match is played for nothing.
void requireWritable(const std::string& option, const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  struct stat st;
  const bool exists = stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) usageError(option + " '" + path + "' is a directory");
  if (access(exists ? path.c_str() : dir.c_str(), exists ? W_OK : W_OK | X_OK) != 0)
    usageError("cannot write " + option + " '" + path + "': " + std::strerror(errno) +
               (exists ? "" : " (directory '" + dir + "')"));
}

void checkBots(Options& o, const std::vector<std::string>& positional) {
  if (!o.tournament.empty()) {
    if (positional.size() < 2)
      usageError("--tournament expects at least two bots NAME=COMMAND, got " + std::to_string(positional.size()));
    if (o.sprt.enabled) usageError("--sprt compares two bots; it does not apply to --tournament");
    for (const std::string& p : positional) o.bots.push_back(parseNamedBot(p, o.bots));
  } else {
    if (positional.size() != 2)
      usageError("expected two bots 'COMMAND A' 'COMMAND B' or NAME=COMMAND (or --tournament), got " +
                 std::to_string(positional.size()));
    o.bots = matchBots(positional[0], positional[1]);
    o.commandA = o.bots[0].command, o.commandB = o.bots[1].command;
  }
  if (o.games < 0) o.games = o.sprt.enabled ? 20000 : 10;
}

// Random 1-2-ply openings unless told otherwise: from one start, deterministic bots would replay
// the same two games over and over.
void checkOpenings(Options& o) {
  if (o.emptyBoard && o.openings.kind != OpeningSettings::Kind::None)
    usageError("--empty-board excludes --openings and --random-openings");
  if (!o.emptyBoard && o.openings.kind == OpeningSettings::Kind::None)
    o.openings.kind = OpeningSettings::Kind::Random, o.openings.minPlies = 1, o.openings.maxPlies = 2;
  if (o.seedGiven && o.openings.kind != OpeningSettings::Kind::Random)
    usageError("--seed applies to random openings, not to --openings or --empty-board");
  if (o.openings.kind == OpeningSettings::Kind::Random && !o.seedGiven) {
    std::random_device device;  // a new seed per run; printed and recorded so the run can be repeated
    o.openings.seed = (uint64_t(device()) << 32 | device()) ^ uint64_t(Clock::now().time_since_epoch().count());
  }
}

// Contradictory or unwritable outputs fail here, before any game is played.
void checkOutputs(const Options& o) {
  if (o.resume && o.recordFile.empty()) usageError("--resume needs --record FILE");
  if (o.resume && o.noRecord) usageError("--resume and --no-record exclude each other");
  if (o.noRecord && !o.recordFile.empty()) usageError("--no-record and --record exclude each other");
  if (!o.recordFile.empty()) requireWritable("--record", o.recordFile);
  if (!o.jsonFile.empty()) requireWritable("--json", o.jsonFile);
}

// The flags, each with its meaning and default (the --help text is generated from them).
void declareFlags(cli::Flags& flags, Options& o) {
  auto openingsKind = [&o](OpeningSettings::Kind kind) {
    if (o.openings.kind != OpeningSettings::Kind::None && o.openings.kind != kind)
      usageError("--openings and --random-openings exclude each other");
    o.openings.kind = kind;
  };
  flags
      .value("--tournament", "KIND",
             "several bots named NAME=COMMAND (NAME: letters, digits, . _ -): "
             "round-robin (every pairing) or gauntlet (the first bot against each other). "
             "Reports a cross table and maximum-likelihood ratings anchored on the first "
             "bot.",
             "off, a match of two bots",
             [&o](const std::string& v) {
               o.tournament = v;
               return v == "round-robin" || v == "gauntlet"
                          ? std::string()
                          : "--tournament expects round-robin or gauntlet, got '" + v + "'";
             })
      .integer("--games", "N", o.games, 1, INT32_MAX,
               "games to play; in a tournament per pairing. Games come in pairs with seats swapped.",
               "10; in SPRT mode the maximum, default 20000")
      .integer("--jobs", "N", o.jobs, 1, INT32_MAX, "games played at the same time")
      .number("--time-ms", "MS", o.limits.turnMs, 1, cli::kNoMax, "limit per later turn")
      .number("--first-time-ms", "MS", o.limits.firstTurnMs, 1, cli::kNoMax, "limit for a bot's own first turn")
      .number("--grace", "F", o.limits.grace, 1, cli::kNoMax,
              "a reply later than limit x F loses; later than limit is counted slow")
      .value("--openings", "FILE",
             "one opening per line: a forced move or a list of moves 'x y', separated by "
             "spaces, commas or semicolons; '#' starts a comment. Pair k uses line k mod "
             "count. tools/openings/two_stone.txt holds every two-ply start up to "
             "symmetry.",
             "random openings",
             [&o, openingsKind](const std::string& v) {
               openingsKind(OpeningSettings::Kind::File);
               o.openings.file = v;
               return std::string();
             })
      .value("--random-openings", "K",
             "each pair starts from K random plies that make no 3 and no 4 (ply 2 is never "
             "a steal; with K = 1 the second bot may steal). K1-K2: pair k draws K from "
             "the range.",
             "1-2 unless --openings or --empty-board",
             [&o, openingsKind](const std::string& v) {
               openingsKind(OpeningSettings::Kind::Random);
               std::string error;
               parsePlyRange(v, o.openings.minPlies, o.openings.maxPlies, error);
               return error;
             })
      .option("--empty-board", o.emptyBoard,
              "every game starts on the empty board (deterministic bots then repeat the same two games)")
      .value("--seed", "S", "seed of the random openings", "a new one per run, printed and recorded",
             [&o](const std::string& v) {
               o.seedGiven = true;
               return cli::toInteger(v, 0, cli::kNoLimit, o.openings.seed)
                          ? std::string()
                          : "--seed expects a non-negative integer, got '" + v + "'";
             })
      .text("--record", "FILE", o.recordFile, "write the set-up and every game as JSON lines",
            "/tmp/arena-<time>-<pid>.jsonl")
      .option("--no-record", o.noRecord, "do not record games")
      .option("--resume", o.resume,
              "continue the match in --record FILE: finished games are read, not replayed; "
              "refused when the record's set-up differs")
      .text("--json", "FILE", o.jsonFile, "write the end summary as JSON", "none")
      .optionalValue(
          "--sprt", "[elo0=0,elo1=5,alpha=0.05,beta=0.05]",
          "stop as soon as the SPRT decides (keys default as shown): "
          "pentanomial GSPRT on game pairs, logistic Elo; H1 = \"A is stronger by elo1\", "
          "H0 = \"by elo0 at most\". alpha: chance of accepting H1 at elo0, beta: of "
          "accepting H0 at elo1",
          "off", [](const std::string& next) { return next.find('=') != std::string::npos; },
          [&o](const std::string& v) {
            parseSprt(v, o.sprt);
            return std::string();
          })
      .text("--stderr-dir", "DIR", o.stderrDir, "keep each bot's stderr in DIR/game-<n>-<NAME>.log", "discarded")
      .option("--quiet", o.quiet, "no per-game lines and no progress line");
}

Options parseOptions(int argc, char** argv) {
  Options o;
  cli::Flags flags("arena");
  declareFlags(flags, o);
  const std::vector<std::string> positional = flags.parseOrExit(argc, argv, 1, kUsage, SIZE_MAX);
  checkBots(o, positional);
  checkOpenings(o);
  checkOutputs(o);
  return o;
}

// One game of the schedule: which pairing of bots, and which game of that pairing.
struct ScheduledGame {
  int pairing = 0, local = 0;  // local game 2k + s: pair k, A moving first when s = 0
};

// The shared state of a running match (or tournament: several pairings of bots).
struct Match {
  Options opt;
  SetUp setUp;
  MatchInfo info;
  Openings openings;
  std::vector<std::pair<int, int>> pairings;  // (bot playing A, bot playing B)
  std::vector<ScheduledGame> schedule;        // pair by pair, every pairing in turn
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<MatchStats> stats;                // per pairing
  std::set<std::pair<int, int>> finishedGames;  // (pairing, local) from --resume
  std::vector<char> provedWorking;              // per bot: answered a turn in this run
  std::string fatal;                            // why the match stopped (a bot that cannot play)
  std::atomic<size_t> nextGame{0};
  std::atomic<bool> sprtDone{false};
  int running = 0;
  FILE* record = nullptr;
  std::vector<std::string> finishedLines;  // "game 3: ... beats ...", printed by the main thread
  Clock::time_point start = Clock::now();
  int64_t playedThisRun = 0;
};

// The bots' stderr for a game: a file in --stderr-dir, or (while a bot has not yet answered a
// turn) an unnamed temporary file kept to show why it failed. -1: discarded.
int stderrFile(const Match& m, int game, int bot, bool keepForDiagnosis) {
  if (!m.opt.stderrDir.empty()) {
    const std::string path =
        m.opt.stderrDir + "/game-" + std::to_string(game) + "-" + m.setUp.bots[size_t(bot)].name + ".log";
    return open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  }
  return keepForDiagnosis ? unnamedTemporaryFile() : -1;
}

// Did the bot in `seat` answer at least one turn of this game?
bool answeredATurn(const GameResult& r, int seat) {
  for (size_t i = size_t(r.openingPlies); i < r.moves.size(); ++i)
    if (int(i % 2) == seat && r.moves[i].ms >= 0) return true;
  return false;
}

void playOneGame(Match& m, int game, const ScheduledGame& g) {
  const int pair = g.local / 2;
  const int seatOfA = g.local % 2;  // the first game of a pair has A moving first
  const int bots[2] = {m.pairings[size_t(g.pairing)].first, m.pairings[size_t(g.pairing)].second};  // A, B
  const Opening opening = m.openings.forPair(pair);
  bool proved[2];
  {
    std::lock_guard<std::mutex> lock(m.mutex);
    for (int k = 0; k < 2; ++k) proved[k] = m.provedWorking[size_t(bots[k])];
  }
  int errFd[2];
  for (int k = 0; k < 2; ++k) errFd[k] = stderrFile(m, game, bots[k], !proved[k]);
  ProcessPlayer a(m.setUp.bots[size_t(bots[0])].command, errFd[0]), b(m.setUp.bots[size_t(bots[1])].command, errFd[1]);
  Player* seats[2] = {seatOfA == 0 ? static_cast<Player*>(&a) : &b, seatOfA == 0 ? static_cast<Player*>(&b) : &a};
  GameRecord record;
  record.game = game, record.pairing = g.pairing, record.pair = pair, record.seatOfA = seatOfA;
  record.nameA = m.setUp.bots[size_t(bots[0])].name, record.nameB = m.setUp.bots[size_t(bots[1])].name;
  record.result = refereeGame(seats, opening, m.opt.limits);
  std::lock_guard<std::mutex> lock(m.mutex);
  // Fail fast: a bot that never answered a turn in this run and crashed before its first answer
  // cannot play at all (wrong command, missing library, bad flag); every further game would be
  // a meaningless loss.
  for (int k = 0; k < 2; ++k) {
    const int seat = k == 0 ? seatOfA : seatOfA ^ 1;
    if (answeredATurn(record.result, seat)) {
      m.provedWorking[size_t(bots[k])] = true;
    } else if (record.result.reason == Reason::Crash && record.result.winnerSeat == (seat ^ 1) &&
               !m.provedWorking[size_t(bots[k])] && m.fatal.empty()) {
      const BotSpec& bot = m.setUp.bots[size_t(bots[k])];
      m.fatal = "bot " + bot.name + " ('" + bot.command + "') failed on its first turn in game " +
                std::to_string(game) + ": " + record.result.detail + "\n--- its stderr ---\n" +
                (errFd[k] >= 0 ? fileStart(errFd[k]) : "") +
                "--- end of stderr ---\nThe match is stopped: check the command.";
      stopRequested() = true;  // abort the games still running
    }
  }
  for (int fd : errFd)
    if (fd >= 0) close(fd);
  if (!m.fatal.empty()) return;
  MatchStats& stats = m.stats[size_t(g.pairing)];
  stats.add(record);
  if (record.result.reason != Reason::Aborted) {
    const int repeatOf = stats.repeatOf(game);
    m.finishedLines.push_back(
        gameSummary(record) +
        (repeatOf >= 0 ? "  [repeats game " + std::to_string(repeatOf) + ": same moves, same seats]" : ""));
    ++m.playedThisRun;
    if (m.record) {
      std::fputs((recordToJson(record) + "\n").c_str(), m.record);
      std::fflush(m.record);
    }
  }
  if (m.opt.sprt.enabled && sprtState(m.stats[0].pairs, m.opt.sprt).decision != SprtDecision::Continue)
    m.sprtDone = true;
}

void worker(Match& m) {
  for (;;) {
    if (stopRequested() || m.sprtDone) return;
    const size_t game = m.nextGame++;
    if (game >= m.schedule.size()) return;
    const ScheduledGame g = m.schedule[game];
    if (m.finishedGames.count({g.pairing, g.local})) continue;
    {
      std::lock_guard<std::mutex> lock(m.mutex);
      ++m.running;
    }
    playOneGame(m, int(game), g);
    {
      std::lock_guard<std::mutex> lock(m.mutex);
      --m.running;
    }
    m.changed.notify_all();
  }
}

std::string progressLine(Match& m) {
  int64_t done = 0, aborted = 0;
  for (const MatchStats& s : m.stats) done += s.games(), aborted += s.aborted;
  const double minutes = msSince(m.start) / 60000.0;
  const double rate = minutes > 0 ? double(m.playedThisRun) / minutes : 0;
  const int64_t total = int64_t(m.schedule.size());
  const int64_t left = total - done - aborted;
  char buf[256];
  std::string eta = "?";
  if (rate > 0) {
    const long seconds = long(double(left) / rate * 60 + 0.5);
    eta = seconds >= 60 ? std::to_string(seconds / 60) + "m" + std::to_string(seconds % 60) + "s"
                        : std::to_string(seconds) + "s";
  }
  if (m.pairings.size() > 1) {
    std::snprintf(buf, sizeof buf, "[%lld/%lld] %zu pairings  %.1f games/min  ETA %s", (long long)done,
                  (long long)total, m.pairings.size(), rate, eta.c_str());
    return buf;
  }
  const MatchStats& s = m.stats[0];
  std::snprintf(buf, sizeof buf, "[%lld/%lld] W %lld D %lld L %lld  score %.3f  %s  %.1f games/min  ETA %s",
                (long long)done, (long long)total, (long long)s.wins, (long long)s.draws, (long long)s.losses,
                s.games() ? s.score() : 0.5, formatElo(s.elo()).c_str(), rate, eta.c_str());
  std::string line = buf;
  if (m.opt.sprt.enabled) {
    SprtState st = sprtState(s.pairs, m.opt.sprt);
    std::snprintf(buf, sizeof buf, "  LLR %.2f [%.2f, %.2f]", st.llr, st.lower, st.upper);
    line += buf;
  }
  return line;
}

std::string defaultRecordPath() {
  char stamp[32];
  std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::gmtime(&now));
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp && *tmp ? tmp : "/tmp") + "/arena-" + stamp + "-" + std::to_string(getpid()) + ".jsonl";
}

// Pair by pair, every pairing in turn: an interrupted tournament has all pairings about as far.
std::vector<ScheduledGame> makeSchedule(size_t pairings, int gamesPerPairing) {
  std::vector<ScheduledGame> schedule;
  for (int pair = 0; 2 * pair < gamesPerPairing; ++pair)
    for (size_t p = 0; p < pairings; ++p)
      for (int s = 0; s < 2 && 2 * pair + s < gamesPerPairing; ++s) schedule.push_back({int(p), 2 * pair + s});
  return schedule;
}

// --resume: reads the record's set-up and finished games. Refuses (usage error) a record made
// with another set-up or without a header. A missing or empty file starts a new record.
// Returns whether the file already has a header.
bool readRecordForResume(Match& m) {
  std::ifstream in(m.opt.recordFile);
  RecordFile file;
  std::string error;
  if (!readRecordFile(in, m.opt.recordFile, file, error)) usageError("--resume: " + error);
  for (const std::string& warning : file.warnings) std::cerr << "arena: " << warning << "\n";
  if (file.hasHeader) {
    // The seed is part of the set-up: without --seed, continue with the recorded one.
    if (file.setUp.openings.kind == OpeningSettings::Kind::Random &&
        m.setUp.openings.kind == OpeningSettings::Kind::Random && !m.opt.seedGiven)
      m.setUp.openings.seed = file.setUp.openings.seed;
    const std::vector<std::string> differences = setUpDifferences(file.setUp, m.setUp);
    if (!differences.empty()) {
      std::string text = "--resume: '" + m.opt.recordFile + "' (arena " + file.version + ", " + file.date +
                         ") was made with a different set-up:";
      for (const auto& d : differences) text += "\n  " + d;
      usageError(text + "\nUse the same set-up, or a new record file");
    }
  }
  for (const GameRecord& r : file.games) {
    const int local = 2 * r.pair + r.seatOfA;
    if (r.result.reason == Reason::Aborted || r.pairing < 0 || size_t(r.pairing) >= m.pairings.size() ||
        local >= m.opt.games || m.finishedGames.count({r.pairing, local}))
      continue;
    m.finishedGames.insert({r.pairing, local});
    m.stats[size_t(r.pairing)].add(r);
  }
  std::cerr << "arena: resuming with " << m.finishedGames.size() << " finished games from " << m.opt.recordFile << "\n";
  return file.hasHeader;
}

// The bots, pairings, schedule and openings of the run.
void setUpRun(Match& m) {
  const Options& opt = m.opt;
  m.setUp.mode = opt.tournament.empty() ? "match" : opt.tournament;
  m.setUp.bots = opt.bots;
  for (int i = 0; i < int(opt.bots.size()); ++i)
    for (int j = i + 1; j < int(opt.bots.size()); ++j)
      if (opt.tournament != "gauntlet" || i == 0) m.pairings.push_back({i, j});
  m.setUp.limits = opt.limits;
  m.setUp.gamesPerPairing = opt.games;
  m.stats.resize(m.pairings.size());
  m.provedWorking.assign(m.setUp.bots.size(), false);
  m.schedule = makeSchedule(m.pairings.size(), opt.games);
  std::string error;
  if (!m.openings.init(opt.openings, error)) usageError(error);
  m.setUp.openings = m.openings.settings();  // with the file's hash
  const unsigned cores = std::thread::hardware_concurrency();
  if (cores > 0 && unsigned(opt.jobs) > cores)
    std::cerr << "arena: warning: --jobs " << opt.jobs << " exceeds the " << cores
              << " cores; bots will be slowed down and may lose on time\n";
  if (!opt.stderrDir.empty()) {
    mkdir(opt.stderrDir.c_str(), 0755);
    struct stat st;
    if (stat(opt.stderrDir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      usageError("--stderr-dir '" + opt.stderrDir + "' is not a directory");
  }
}

// --resume's finished games, then the record file opened (a header first when it is new).
void openRecord(Match& m) {
  Options& opt = m.opt;
  const bool hasHeader = opt.resume && readRecordForResume(m);
  if (m.setUp.openings.seed != opt.openings.seed) {  // adopted from the record
    opt.openings.seed = m.setUp.openings.seed;
    std::string error;
    m.openings.init(opt.openings, error);
  }
  if (opt.openings.kind == OpeningSettings::Kind::Random)
    std::cerr << "arena: openings: " << opt.openings.describe() << " (repeat with --seed " << opt.openings.seed
              << ")\n";
  if (opt.noRecord) return;
  if (opt.recordFile.empty()) opt.recordFile = defaultRecordPath();
  m.record = std::fopen(opt.recordFile.c_str(), opt.resume ? "a" : "w");
  if (!m.record) usageError("cannot write the record file '" + opt.recordFile + "': " + std::strerror(errno));
  fcntl(fileno(m.record), F_SETFD, FD_CLOEXEC);
  if (!hasHeader) std::fprintf(m.record, "%s\n", headerToJson(m.setUp, utcNow()).c_str()), std::fflush(m.record);
}

void installSignalHandlers() {
  stopOnSignals(stopRequested(), StopStyle::Abort);
  signal(SIGPIPE, SIG_IGN);
}

// Plays the schedule with --jobs workers; meanwhile prints one line per finished game and the
// progress: live on a terminal, a line every 10 s otherwise (a log file gets no '\r').
void playGames(Match& m) {
  std::vector<std::thread> threads;
  for (int j = 0; j < m.opt.jobs; ++j) threads.emplace_back(worker, std::ref(m));
  const bool tty = isatty(2);
  bool progressShown = false;  // a live progress line is on the terminal
  {
    std::unique_lock<std::mutex> lock(m.mutex);
    auto lastPrint = Clock::now() - std::chrono::hours(1);
    int64_t lastDone = -1;
    for (;;) {
      m.changed.wait_for(lock, std::chrono::milliseconds(tty ? 500 : 1000));
      int64_t done = 0;
      for (const MatchStats& s : m.stats) done += s.games();
      const bool finished = m.running == 0 && (stopRequested() || m.sprtDone || m.nextGame >= m.schedule.size());
      if (!m.opt.quiet && m.fatal.empty()) {
        for (const std::string& line : m.finishedLines)
          std::cerr << (progressShown ? "\r\033[K" : "") << line << "\n", progressShown = false;
        if (tty ? (done != lastDone || msSince(lastPrint) > 1000)
                : (done != lastDone && msSince(lastPrint) > 10000) || finished) {
          std::cerr << (tty ? "\r\033[K" : "") << progressLine(m) << (tty ? "" : "\n") << std::flush;
          progressShown = tty, lastPrint = Clock::now(), lastDone = done;
        }
      }
      m.finishedLines.clear();
      if (finished) break;
    }
  }
  for (auto& t : threads) t.join();
  if (progressShown) std::cerr << "\n";
}

// The end report on stdout and, with --json, in a file. Returns the exit status.
int report(Match& m) {
  const Options& opt = m.opt;
  m.info.nameA = m.setUp.bots[0].name, m.info.nameB = m.setUp.bots[1].name;
  m.info.commandA = opt.commandA, m.info.commandB = opt.commandB;
  m.info.limits = opt.limits;
  m.info.gamesPlanned = opt.games;
  m.info.sprt = opt.sprt;
  m.info.openings = m.openings.settings();
  m.info.recordFile = opt.noRecord ? "" : opt.recordFile;
  m.info.interrupted = stopRequested();
  m.info.elapsedSeconds = msSince(m.start) / 1000;
  TournamentInfo t{m.setUp, m.pairings, m.info.recordFile, m.info.interrupted, m.info.elapsedSeconds};
  const bool tournament = !opt.tournament.empty();
  std::cout << (tournament ? tournamentTextReport(m.stats, t) : textReport(m.stats[0], m.info)) << std::flush;
  if (!opt.jsonFile.empty()) {
    std::ofstream out(opt.jsonFile);
    out << (tournament ? tournamentJsonReport(m.stats, t) : jsonReport(m.stats[0], m.info));
    if (!out) {
      std::cerr << "arena: cannot write '" << opt.jsonFile << "': " << std::strerror(errno) << "\n";
      return 1;
    }
  }
  return m.info.interrupted ? kInterruptedStatus : 0;
}

}  // namespace

int main(int argc, char** argv) {
  Match m;
  m.opt = parseOptions(argc, argv);
  setUpRun(m);
  openRecord(m);
  installSignalHandlers();
  playGames(m);
  if (m.record) std::fclose(m.record);
  if (!m.fatal.empty()) {
    std::cerr << "arena: " << m.fatal << "\n";
    return 3;
  }
  return report(m);
}
