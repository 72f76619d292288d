// Game records: one JSON object per line, written by the arena (`--record FILE`) and read by the
// viewer and by `--resume`.
//
// Line 1: the set-up (setup.h). Then per game:
// {"game":3,"pairing":0,"pair":1,"bots":["A","B"],"seats":["B","A"],"opening_plies":1,
//  "moves":["4 4","3 2",...],"times_ms":[-1,12.4,...],"slow":[5],"result":"A","winner_seat":2,
//  "reason":"line3","detail":"seat 1 made a line of 3"}
// `bots` names the pairing's A and B (in tournaments the bots' own names); `seats[0]` moved first
// (CodinGame id 1); `winner_seat` is 1, 2 or 0 (draw/aborted); times are -1 for forced opening
// moves; `slow` lists the ply indices answered later than the limit; `final_ms` is the answer time
// of a late, bad or illegal last answer (it placed no stone, so it is not in `times_ms`).
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "tools/arena/json.h"
#include "tools/arena/referee.h"

namespace yav::arena {

struct GameRecord {
  int game = 0, pair = 0;
  int seatOfA = 0;                       // 0: A moved first
  int pairing = 0;                       // tournaments: which pairing of bots (0 in a two-bot match)
  std::string nameA = "A", nameB = "B";  // the bots playing A and B
  GameResult result;

  // "A", "B", "draw" or "aborted"
  std::string resultName() const {
    if (result.reason == Reason::Aborted) return "aborted";
    if (result.winnerSeat < 0) return "draw";
    return result.winnerSeat == seatOfA ? "A" : "B";
  }
};

inline std::string recordToJson(const GameRecord& r) {
  std::ostringstream o;
  o << "{\"game\":" << r.game << ",\"pairing\":" << r.pairing << ",\"pair\":" << r.pair << ",\"bots\":["
    << json::quote(r.nameA) << "," << json::quote(r.nameB)
    << "],\"seats\":" << (r.seatOfA == 0 ? "[\"A\",\"B\"]" : "[\"B\",\"A\"]")
    << ",\"opening_plies\":" << r.result.openingPlies << ",\"moves\":[";
  for (size_t i = 0; i < r.result.moves.size(); ++i)
    o << (i ? "," : "") << json::quote(cellName(r.result.moves[i].cell));
  o << "],\"times_ms\":[";
  for (size_t i = 0; i < r.result.moves.size(); ++i) o << (i ? "," : "") << json::number(r.result.moves[i].ms, 2);
  o << "],\"slow\":[";
  bool any = false;
  for (size_t i = 0; i < r.result.moves.size(); ++i)
    if (r.result.moves[i].slow) o << (any ? "," : "") << i, any = true;
  o << "],\"messages\":[";
  for (size_t i = 0; i < r.result.moves.size(); ++i) o << (i ? "," : "") << json::quote(r.result.moves[i].message);
  o << "],\"result\":" << json::quote(r.resultName()) << ",\"winner_seat\":" << (r.result.winnerSeat + 1)
    << ",\"reason\":" << json::quote(reasonName(r.result.reason)) << ",\"detail\":" << json::quote(r.result.detail);
  if (!r.result.finalAnswer.empty()) o << ",\"final_answer\":" << json::quote(r.result.finalAnswer);
  if (r.result.finalMs >= 0) o << ",\"final_ms\":" << json::number(r.result.finalMs, 2);
  o << "}";
  return o.str();
}

// One line per finished game, as the arena prints it: "game 3: new (x) beats old (o), line of 4,
// 23 plies". x moved first (the viewer's X), o second.
inline std::string gameSummary(const GameRecord& r) {
  const std::string seatName[2] = {(r.seatOfA == 0 ? r.nameA : r.nameB) + " (x)",
                                   (r.seatOfA == 0 ? r.nameB : r.nameA) + " (o)"};
  const std::string plies = std::to_string(r.result.moves.size()) + (r.result.moves.size() == 1 ? " ply" : " plies");
  std::string text = "game " + std::to_string(r.game) + ": ";
  if (r.result.reason == Reason::Aborted) return text + seatName[0] + " vs " + seatName[1] + " aborted";
  if (r.result.winnerSeat < 0) return text + seatName[0] + " and " + seatName[1] + " draw, board full, " + plies;
  const int w = r.result.winnerSeat;
  const std::string loser = w == 0 ? (r.seatOfA == 0 ? r.nameB : r.nameA) : (r.seatOfA == 0 ? r.nameA : r.nameB);
  std::string how;
  switch (r.result.reason) {
    case Reason::Line4:
      how = "line of 4";
      break;
    case Reason::Line3:
      how = loser + " made a line of 3";
      break;
    case Reason::Timeout:
      how = loser + " lost on time";
      break;
    case Reason::Illegal:
      how = loser + " played an illegal move";
      break;
    case Reason::BadOutput:
      how = loser + " gave bad output";
      break;
    case Reason::Crash:
      how = loser + " crashed";
      break;
    default:
      how = reasonName(r.result.reason);
      break;
  }
  return text + seatName[w] + " beats " + seatName[w ^ 1] + ", " + how + ", " + plies;
}

// The first line of a record file is its set-up (setup.h), not a game.
inline bool isRecordHeader(const std::string& line) { return line.rfind("{\"record_header\"", 0) == 0; }

// Reads one record line; false with `error` when the line is not a valid record.
inline bool recordFromJson(const std::string& line, GameRecord& r, std::string& error) {
  json::Value v;
  if (!json::parse(line, v, error)) return false;
  if (v.type != json::Value::Type::Object) return error = "a record must be a JSON object", false;
  r = GameRecord();
  r.game = int(v.numberOr("game", 0));
  r.pair = int(v.numberOr("pair", r.game / 2));
  const json::Value* seats = v.get("seats");
  r.seatOfA = seats && seats->items.size() == 2 && seats->items[0].str == "B" ? 1 : 0;
  r.pairing = int(v.numberOr("pairing", 0));
  if (const json::Value* bots = v.get("bots"))
    if (bots->items.size() == 2) r.nameA = bots->items[0].str, r.nameB = bots->items[1].str;
  r.result.openingPlies = int(v.numberOr("opening_plies", 0));
  const json::Value* moves = v.get("moves");
  if (!moves || moves->type != json::Value::Type::Array) return error = "record without \"moves\"", false;
  const json::Value* times = v.get("times_ms");
  const json::Value* messages = v.get("messages");
  Board board;
  for (size_t i = 0; i < moves->items.size(); ++i) {
    MoveRecord m;
    int x = -1, y = -1;
    if (std::sscanf(moves->items[i].str.c_str(), "%d %d", &x, &y) != 2 || !onBoardXY(x, y))
      return error = "move " + std::to_string(i + 1) + " '" + moves->items[i].str + "' is not 'x y'", false;
    m.cell = cellAt(x, y);
    if (!board.isLegal(m.cell)) return error = "move " + std::to_string(i + 1) + " is illegal", false;
    board.play(m.cell);
    if (times && i < times->items.size() && times->items[i].type == json::Value::Type::Number)
      m.ms = times->items[i].num;
    if (messages && i < messages->items.size()) m.message = messages->items[i].str;
    r.result.moves.push_back(m);
  }
  if (const json::Value* slow = v.get("slow"))
    for (const auto& s : slow->items)
      if (s.num >= 0 && size_t(s.num) < r.result.moves.size()) r.result.moves[size_t(s.num)].slow = true;
  r.result.winnerSeat = int(v.numberOr("winner_seat", 0)) - 1;
  if (!reasonFromName(v.stringOr("reason", ""), r.result.reason))
    return error = "unknown reason '" + v.stringOr("reason", "") + "'", false;
  r.result.detail = v.stringOr("detail", "");
  r.result.finalAnswer = v.stringOr("final_answer", "");
  r.result.finalMs = v.numberOr("final_ms", -1);
  return true;
}

}  // namespace yav::arena
