/* cmd_main.c: the greedymap command: help, version and dispatch to the
 * subcommands. */
#include "cmd.h"

static const char main_help[] =
    "usage: greedymap COMMAND [options]\n"
    "\n"
    "Map the tasks of a task graph onto the processors of a machine.\n"
    "\n"
    "commands:\n"
    "  map GRAPH -o MAP         GreedyMap with one configuration\n"
    "  baseline KIND GRAPH -o MAP\n"
    "                           block, cyclic, hilbert, rb, drb, random\n"
    "                           or decompose\n"
    "  eval GRAPH --mapping MAP every metric of a mapping (topomap mapping\n"
    "                           file, Open MPI rankfile or Scotch map)\n"
    "  configs                  GreedyMap's portfolio for the machine\n"
    "\n"
    "The machine: --nodes N --slots S or --hostfile FILE, --network SPEC,\n"
    "--positions FILE, --node-topology T, --hierarchy A1:A2:..\n"
    "--distance D1:D2:..; the graph: --from FORMAT, --layer NAME, --grid G.\n"
    "'greedymap COMMAND --help' describes each command; --version prints\n"
    "the version; man greedymap.\n";

int main(int argc, char **argv)
{
    static const cli_command commands[] = {{"map", cmd_map},
                                           {"baseline", cmd_baseline},
                                           {"eval", cmd_eval},
                                           {"configs", cmd_configs}};
    return cli_main("greedymap", main_help, commands,
                    sizeof commands / sizeof commands[0], argc, argv);
}
