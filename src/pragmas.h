// The bot's optimisation pragmas, chosen here once (measurements: docs/submission.md). CodinGame
// compiles without any -O flag, so they must be in the source: bot/main.cpp includes this file
// first, and scripts/amalgamate.py moves these lines to the top of the submission.
// - "inline": without it, plain g++ keeps inlining off for the whole file (no -O) and every small
//   accessor stays a call: half the speed.
// - No target pragma: the grading CPU is unknown; bitboard.h counts bits without POPCNT.
#pragma once
#pragma GCC optimize("O3,inline")
