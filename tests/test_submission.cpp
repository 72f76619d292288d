// The CodinGame submission (scripts/amalgamate.py, compiled like CodinGame by the `submission`
// CMake target, with this g++ as C++17 and C++20 and with CodinGame's g++ version when installed)
// must play exactly like the CMake-built bot, and the amalgamation and size-check
// scripts must do what docs/submission.md says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "tests/test_util.h"
#include "tools/book/book_writer.h"

namespace fs = std::filesystem;
using yav::CommandRun;
using yav::readFile;
using yav::runCommand;

namespace {

const std::string kSourceDir = YAVALATH_SOURCE_DIR;
const std::string kBinDir = YAVALATH_BIN_DIR;
const std::string kSubmissionFile = kBinDir + "/../submission/yavalath.cpp";

std::string quote(const std::string& s) { return "'" + s + "'"; }

void writeFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

size_t countOf(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

std::vector<std::string> positionFiles() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(kSourceDir + "/tests/data/positions"))
    if (entry.path().extension() == ".txt") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// A fresh temporary directory, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("yavalath_submission_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  static int& counter() {
    static int c = 0;
    return c;
  }
};

}  // namespace

TEST(Submission, PlaysExactlyLikeTheCMakeBuiltBot) {
  const std::string flags = " --iterations 3000 --seed 11 --quiet < ";
  const auto files = positionFiles();
  ASSERT_GE(files.size(), 8u) << "recorded positions are missing from tests/data/positions";
  const std::regex moveLine(R"(^[0-8] [0-8]( .*)?\n$)");
  for (const auto& file : files) {
    CommandRun reference = runCommand(quote(kBinDir + "/bot") + flags + quote(file) + " 2>/dev/null");
    ASSERT_EQ(reference.status, 0) << "the CMake-built bot failed on " << file;
    ASSERT_TRUE(std::regex_match(reference.out, moveLine)) << file << ": '" << reference.out << "'";
    for (const char* name : {"cxx17", "cxx20", "codingame_gxx"}) {
      const std::string binary = kBinDir + "/bot_submission_" + name;
      if (std::string(name) == "codingame_gxx" && !fs::exists(binary)) continue;  // g++-11/10 not installed
      CommandRun single = runCommand(quote(binary) + flags + quote(file) + " 2>/dev/null");
      ASSERT_EQ(single.status, 0) << binary << " failed on " << file;
      EXPECT_EQ(single.out, reference.out) << binary << " plays differently on " << file;
    }
  }
}

TEST(Submission, InlinesEveryProjectHeaderOnceAndOptimisesFirst) {
  const std::string text = readFile(kSubmissionFile);
  ASSERT_FALSE(text.empty()) << kSubmissionFile << " was not generated";
  EXPECT_EQ(text.rfind("#pragma GCC optimize", 0), 0u) << "the optimisation pragma must come first";
  EXPECT_EQ(countOf(text, "#include \""), 0u) << "a project include was left in";
  EXPECT_EQ(countOf(text, "#pragma once"), 0u);
  EXPECT_EQ(countOf(text, "int main("), 1u);
  // Each header comes once, however many files include it (names are shortened: the banners say).
  EXPECT_EQ(countOf(text, "// ---- src/board.h ----"), 1u);  // included by several headers
  EXPECT_EQ(countOf(text, "// ---- src/protocol.h ----"), 1u);
  // Every standard include appears once.
  std::istringstream lines(text);
  std::vector<std::string> includes;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("#include <", 0) == 0) includes.push_back(line);
  std::vector<std::string> unique = includes;
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  EXPECT_EQ(unique.size(), includes.size());
}

// A small project with everything the amalgamator must handle: an optimisation pragma in a header
// (moved to the top), nested and repeated includes, a classic include guard, a standard include
// inside a conditional (must stay there), comment markers inside string, raw-string and character
// literals, digit separators, a macro continued over two lines, tokens that would merge
// without the space between them, adjacent string literals, and asserts.
TEST(Submission, AmalgamatorHandlesGuardsConditionalsAndLiterals) {
  TempDir dir;
  writeFile(dir.path / "src/a.h",
            "// a.h\n#ifndef A_H\n#define A_H\n#include <string>\n"
            "inline std::string slashes() { return \"http://x/*y*/\"; }  // comment\n#endif  // A_H\n");
  writeFile(dir.path / "src/b.h",
            "#pragma once\n#include <string>\n#include <vector>\n#include <cstdlib>\n#include \"a.h\"\n/* block\n "
            "comment */\n"
            "inline std::string raw() { return R\"x(//raw)x\"; }\ninline char slash() { return '/'; }\n"
            "constexpr long kMillion = 1'000'000;\n"
            "#define TWICE(x) \\\n  ((x) + (x))\n"
            "inline int tricky(int a, int b, const int* p) {\n  return a - -b + (a / *p) + +a - - -b + TWICE(a);\n}\n"
            "inline const char* pieces() { return \"ab\" \"cd\" \"\\x41\" \"1\"; }\n"
            "inline int nested() { std::vector<std::vector<int> > v{{1, 2}}; return v[0][1] < ::abs(-3); }\n"
            "#include <cassert>\n"
            "inline int checked(int a) {\n  assert(a > 0);\n  if (a > 5) assert(a != 6);\n"
            "  static_assert(sizeof(int) >= 2, \"int\" \" holds 16 bits\");\n  static_assert(sizeof(char) == 1);\n"
            "  return a;\n}\n");
  writeFile(dir.path / "book/data.h", "inline const char* const kData = \"book\";\n");
  writeFile(dir.path / "src/pragmas.h", "#pragma once\n#pragma GCC optimize(\"O2\")  // why\n");
  writeFile(
      dir.path / "bot/main.cpp",
      "#include \"pragmas.h\"\n#include <cstdio>\n#include \"b.h\"\n#include \"a.h\"\n#if __has_include(\"data.h\")\n"
      "#include \"data.h\"\n#else\ninline const char* const kData = \"none\";\n#endif\n"
      "#ifdef SOMETHING\n#include <map>\n#endif\n"
      "int main() { int two = 2; std::printf(\"%s %s %c %ld %s %d %d %s %d\\n\", slashes().c_str(), raw().c_str(), "
      "slash(), kMillion, kData, tricky(7, 3, &two), nested(), pieces(), checked(7)); }\n");
  const std::string out = (dir.path / "out.cpp").string();
  // The project's names kept first (--no-rename), to find the pieces below by name.
  CommandRun amalgamate = runCommand("python3 " + quote(kSourceDir + "/scripts/amalgamate.py") + " --root " +
                                     quote(dir.path.string()) + " --output " + quote(out) + " --no-rename 2>&1");
  ASSERT_EQ(amalgamate.status, 0) << amalgamate.out;
  const std::string text = readFile(out);
  EXPECT_EQ(text.rfind("#pragma GCC optimize(\"O2\")\n", 0), 0u) << "the sources' pragma must come first:\n" << text;
  EXPECT_EQ(countOf(text, "#pragma GCC optimize"), 1u);
  EXPECT_EQ(countOf(text, "inline std::string slashes()"), 1u);
  EXPECT_EQ(countOf(text, "A_H"), 0u) << "the include guard was kept:\n" << text;
  EXPECT_EQ(countOf(text, "#include <string>"), 1u);
  EXPECT_EQ(countOf(text, "block"), 0u) << "a comment was kept:\n" << text;
  EXPECT_LT(text.find("#include <cstdio>"), text.find("inline std::string slashes()")) << "not hoisted";
  // The conditional standard include stays inside its #ifdef.
  EXPECT_LT(text.find("#ifdef SOMETHING"), text.find("#include <map>"));
  const std::string binary = (dir.path / "out").string();
  CommandRun compile =
      runCommand("g++ -std=c++17 -Wall -Wextra -Werror " + quote(out) + " -o " + quote(binary) + " 2>&1");
  ASSERT_EQ(compile.status, 0) << compile.out << "\n" << text;
  CommandRun program = runCommand(quote(binary));
  EXPECT_EQ(program.out, "http://x/*y*/ //raw / 1000000 book 31 1 abcdA1 7\n");
  // Spaces go, except where two tokens would merge (a - -b, a / *p, > >, < ::), and a line may
  // break instead of such a space; a macro's lines stay whole.
  std::string flat = text;
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  EXPECT_NE(flat.find("return a- -b+(a/ *p)+ +a- - -b+TWICE(a);"), std::string::npos) << text;
  EXPECT_NE(flat.find("std::vector<std::vector<int> >v{{1,2}};return v[0][1]< ::abs(-3);"), std::string::npos) << text;
  EXPECT_NE(text.find("#define TWICE(x) \\\n((x) + (x))\n"), std::string::npos) << text;
  // Adjacent plain literals are merged, but never after an escape that the next piece could extend.
  EXPECT_NE(flat.find("return\"abcd\\x41\"\"1\";"), std::string::npos) << text;
  // What NDEBUG never runs goes: a whole-statement assert, and a static_assert's message; an
  // assert that is an if's body stays (without it the if would take the next statement).
  EXPECT_EQ(countOf(flat, "assert(a>0)"), 0u) << text;
  EXPECT_NE(flat.find("if(a>5)assert(a!=6);"), std::string::npos) << text;
  EXPECT_NE(flat.find("static_assert(sizeof(int)>=2);static_assert(sizeof(char)==1);return a;"), std::string::npos)
      << text;
  EXPECT_EQ(countOf(text, "holds 16 bits"), 0u) << text;

  // By default the project's identifiers are shortened: the program prints the same; the names
  // of the standard library (std::string, printf, abs), the macro and main stay.
  CommandRun renamed = runCommand("python3 " + quote(kSourceDir + "/scripts/amalgamate.py") + " --root " +
                                  quote(dir.path.string()) + " --output " + quote(out) + " 2>&1");
  ASSERT_EQ(renamed.status, 0) << renamed.out;
  EXPECT_NE(renamed.out.find("identifiers shortened"), std::string::npos) << renamed.out;
  const std::string shortened = readFile(out);
  for (const char* gone : {"slashes", "tricky", "nested", "pieces", "kMillion", "kData"})
    EXPECT_EQ(countOf(shortened, gone), 0u) << gone << " was not renamed:\n" << shortened;
  for (const char* kept : {"std::string", "std::printf", "::abs(", "TWICE(", "int main("})
    EXPECT_NE(countOf(shortened, kept), 0u) << kept << " was renamed:\n" << shortened;
  compile = runCommand("g++ -std=c++17 -Wall -Wextra -Werror " + quote(out) + " -o " + quote(binary) + " 2>&1");
  ASSERT_EQ(compile.status, 0) << compile.out << "\n" << shortened;
  EXPECT_EQ(runCommand(quote(binary)).out, program.out);

  // A missing project header is an error that names the file and the line.
  writeFile(dir.path / "bot/main.cpp", "#include \"missing.h\"\nint main() {}\n");
  CommandRun missing = runCommand("python3 " + quote(kSourceDir + "/scripts/amalgamate.py") + " --root " +
                                  quote(dir.path.string()) + " --output " + quote(out) + " 2>&1");
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.out.find("bot/main.cpp:1: cannot find \"missing.h\""), std::string::npos) << missing.out;
}

TEST(Submission, SizeIsCountedInUtf16UnitsAgainstTheBudget) {
  TempDir dir;
  // 10 ASCII characters, one BMP character (1 unit) and one outside the BMP (2 units): 13 units.
  writeFile(dir.path / "f.cpp", "abcdefghi\n\xC3\xA9\xF0\x9F\x98\x80");
  const std::string check = "python3 " + quote(kSourceDir + "/scripts/check_submission.py") + " " +
                            quote((dir.path / "f.cpp").string()) + " --size-only --budget ";
  CommandRun fits = runCommand(check + "13 2>&1");
  EXPECT_EQ(fits.status, 0) << fits.out;
  EXPECT_NE(fits.out.find("size 13 UTF-16 units"), std::string::npos) << fits.out;
  EXPECT_NE(fits.out.find("headroom 0"), std::string::npos) << fits.out;
  CommandRun over = runCommand(check + "12 2>&1");
  EXPECT_NE(over.status, 0);
  EXPECT_NE(over.out.find("1 over the budget of 12"), std::string::npos) << over.out;
  // The book's characters (every block of book_format.h's alphabet: its first and last values)
  // are counted apart, in the compacted file's form too; a letter outside the alphabet is code.
  using yav::book::bookChar;
  const std::string letters = bookChar(0) + bookChar(20901) + bookChar(20902) + bookChar(27483) + bookChar(27484) +
                              bookChar((1u << yav::kBookBitsPerChar) - 1) + "\xEC\x82\xA4";  // U+C0A4: not the book's
  for (const std::string& form :
       {"inline const char* const kEmbeddedBook =\n    \"" + letters + "\"\n    \"\xE4\xB8\x81\";\n",
        "inline const char*const kEmbeddedBook=\"" + letters + "\"\"\xE4\xB8\x81\";"}) {
    writeFile(dir.path / "f.cpp", form);
    CommandRun book = runCommand(check + "1000 2>&1");
    EXPECT_NE(book.out.find("7 of opening book"), std::string::npos) << form << "\n" << book.out;
  }
}
