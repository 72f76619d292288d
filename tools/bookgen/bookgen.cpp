// bookgen: grows the opening-book database by deep searches of the positions games reach, their
// verdicts minimaxed through the graph of positions (`run`); audits the shipped book with a proof
// search (`audit`); proves positions and classes by proof-number search and writes checkable
// certificates (`prove`, `certificate`); merges, shows and maintains the database. See
// docs/book.md and docs/proofs.md.
#include <iostream>
#include <string>

#include "tools/bookgen/command_audit.h"
#include "tools/bookgen/commands.h"
#include "tools/bookgen/command_database.h"
#include "tools/bookgen/command_run.h"
#include "tools/bookgen/command_proofs.h"
#include "tools/bookgen/command_prove.h"
#include "tools/bookgen/command_show.h"
#include "tools/bookgen/command_stats.h"

namespace {

std::string usage() {
  ShowSettings show;
  GrowSettings grow;
  HtmlSettings html;
  return std::string(kCommands) + "run options:\n" + growFlags(grow).help() + "show options:\n" +
         showFlags(show).help() + "html options:\n" + htmlFlags(html).help() + kFooter;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "run") return growCommand(argc - 2, argv + 2);
  // The commands that take files by position: --help is a request for help, and any other option
  // an error (before, `stats --help` tried to open a file named --help).
  if (command == "merge" || command == "stats" || command == "drop-run" || command == "compact" ||
      command == "migrate") {
    for (int i = 2; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        std::cout << kCommands << kFooter;
        return 0;
      }
      if (command != "stats" && arg.size() > 1 && arg[0] == '-')
        return fail(command + ": unknown option '" + arg + "' (it takes files and ids only; see bookgen --help)");
    }
  }
  if (command == "merge") return mergeCommand(argc - 2, argv + 2);
  if (command == "stats") return statsCommand(argc - 2, argv + 2);
  if (command == "drop-run") return dropRunCommand(argc - 2, argv + 2);
  if (command == "compact") return compactCommand(argc - 2, argv + 2);
  if (command == "migrate") return migrateCommand(argc - 2, argv + 2);
  if (command == "show") return showCommand(argc - 2, argv + 2);
  if (command == "html") return htmlCommand(argc - 2, argv + 2);
  if (command == "prove") return proveCommand(argc - 2, argv + 2);
  if (command == "audit") return auditCommand(argc - 2, argv + 2);
  if (command == "state") return stateCommand(argc - 2, argv + 2);
  if (command == "certificate") return certificateCommand(argc - 2, argv + 2);
  if (command == "proven") return provenCommand(argc - 2, argv + 2);
  if (command == "classes") return classesCommand(argc - 2, argv + 2);
  if (command == "open") return openCommand(argc - 2, argv + 2);
  if (command == "--help" || command == "-h") {
    std::cout << usage();
    return 0;
  }
  return fail(command.empty() ? "missing command" : "unknown command '" + command + "'");
}
