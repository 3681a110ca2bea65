/* test_hetero_fixture.c: see test_hetero_fixture.h. */
#include <stdlib.h>
#include <string.h>

#include "test_hetero_fixture.h"
#include "testutil.h"

/* Two packages of four cores.  Package 0: DRAM node 0 (4 GiB, 20000 MiB/s,
 * 90 ns), HBM node 1 (1 GiB, 80000 MiB/s), GPU 0000:17:00.0 (cuda0 and
 * nvml0, 2 GiB, a UUID).  Package 1: DRAM node 2 (4 GiB, 20000 MiB/s),
 * GPU 0000:b3:00.0 (cuda1 only, 2 GiB).  At machine level: CXL node 3
 * (8 GiB) and GPU-memory node 4 (2 GiB), no memory attributes.  hwloc's
 * XML reader needs the complete sets of every object. */
#define SETS(cpus, nodes)                                                     \
    " cpuset=\"" cpus "\" complete_cpuset=\"" cpus "\" nodeset=\"" nodes       \
    "\" complete_nodeset=\"" nodes "\""
#define CORE(os, cpus, nodes)                                                 \
    "<object type=\"Core\" os_index=\"" os "\"" SETS(cpus, nodes) ">"        \
    "<object type=\"PU\" os_index=\"" os "\"" SETS(cpus, nodes) "/>"         \
    "</object>\n"
#define NUMA(os, gp, cpus, nodes, extra)                                      \
    "<object type=\"NUMANode\" os_index=\"" os "\" gp_index=\"" gp "\""      \
    SETS(cpus, nodes) " " extra "/>\n"
#define GPU(busid, osdevs)                                                    \
    "<object type=\"PCIDev\" pci_busid=\"" busid "\""                         \
    " pci_type=\"0302 [10de:20b0] [10de:134f] a1\">\n" osdevs "</object>\n"
#define CUDA(name)                                                            \
    "<object type=\"OSDev\" name=\"" name "\" subtype=\"CUDA\""             \
    " osdev_type=\"5\"><info name=\"GPUModel\" value=\"Test GPU\"/>"        \
    "<info name=\"CUDAGlobalMemorySize\" value=\"2097152\"/></object>\n"
#define VALUE(gp, v, cpus)                                                    \
    "<memattr_value target_obj_type=\"NUMANode\" target_obj_gp_index=\"" gp \
    "\" value=\"" v "\" initiator_cpuset=\"" cpus "\"/>\n"

static const char node_xml[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
    "<topology version=\"2.0\">\n"
    "<object type=\"Machine\" os_index=\"0\"" SETS("0xff", "0x1f")
    " allowed_cpuset=\"0xff\" allowed_nodeset=\"0x1f\">\n"
    "<info name=\"HostName\" value=\"testnode\"/>\n"
    "<object type=\"Package\" os_index=\"0\"" SETS("0x0f", "0x03") ">\n"
    NUMA("0", "3", "0x0f", "0x01", "local_memory=\"4294967296\"")
    NUMA("1", "4", "0x0f", "0x02",
         "subtype=\"HBM\" local_memory=\"1073741824\"")
    CORE("0", "0x01", "0x03") CORE("1", "0x02", "0x03")
    CORE("2", "0x04", "0x03") CORE("3", "0x08", "0x03")
    GPU("0000:17:00.0",
        CUDA("cuda0")
        "<object type=\"OSDev\" name=\"nvml0\" subtype=\"NVML\""
        " osdev_type=\"1\"><info name=\"NVIDIAUUID\""
        " value=\"GPU-00000000-0000-0000-0000-000000000017\"/></object>\n")
    "</object>\n"
    "<object type=\"Package\" os_index=\"1\"" SETS("0xf0", "0x04") ">\n"
    NUMA("2", "6", "0xf0", "0x04", "local_memory=\"4294967296\"")
    CORE("4", "0x10", "0x04") CORE("5", "0x20", "0x04")
    CORE("6", "0x40", "0x04") CORE("7", "0x80", "0x04")
    GPU("0000:b3:00.0", CUDA("cuda1"))
    "</object>\n"
    NUMA("3", "7", "0xff", "0x08",
         "subtype=\"CXL-DRAM\" local_memory=\"8589934592\"")
    NUMA("4", "8", "0xff", "0x10",
         "subtype=\"GPUMemory\" local_memory=\"2147483648\"")
    "</object>\n"
    "<memattr name=\"Bandwidth\" flags=\"5\">\n"
    VALUE("3", "20000", "0x0f") VALUE("4", "80000", "0x0f")
    VALUE("6", "20000", "0xf0")
    "</memattr>\n"
    "<memattr name=\"Latency\" flags=\"6\">\n"
    VALUE("3", "90", "0x0f")
    "</memattr>\n"
    "</topology>\n";

const char *htf_xml(void)
{
    return tu_write("testnode.xml", node_xml);
}

ht_node *htf_node(void)
{
    ht_node *n;
    tg_error err;
    int rc = ht_node_load(htf_xml(), &n, &err);
    ck_assert_msg(rc == 0, "%s", err.text);
    return n;
}

ht_input *htf_input(int n, int hosts)
{
    ht_input *in = calloc(1, sizeof *in);
    in->n = n;
    in->ranks = calloc((size_t)n, sizeof *in->ranks);
    for (int r = 0; r < n; r++) {
        char name[16];
        int per = (n + hosts - 1) / hosts;
        snprintf(name, sizeof name, "h%d", r / per);
        in->ranks[r].host = strdup(name);
        in->ranks[r].local_rank = r % per;
        in->ranks[r].t_cpu = in->ranks[r].t_gpu = -1;
        in->ranks[r].memory_bound = 1;
    }
    return in;
}

void htf_send(ht_input *in, int from, int to, uint64_t bytes,
              uint64_t messages)
{
    ht_rank *r = &in->ranks[from];
    r->sends = realloc(r->sends, (size_t)(r->nsends + 1) * sizeof *r->sends);
    r->sends[r->nsends++] = (ht_send){to, bytes, messages};
}

ht_problem *htf_problem(const ht_input *in, const ht_node *node,
                        const ht_params *par)
{
    ht_problem *p;
    tg_error err;
    int rc = ht_problem_new(in, node, par, &p, &err);
    ck_assert_msg(rc == 0, "%s", err.text);
    return p;
}

int htf_find(const ht_problem *p, ht_proc proc, int gpu, ht_memkind mem,
             int numa)
{
    for (int c = 0; c < ht_problem_nchoices(p); c++) {
        const ht_choice *ch = ht_problem_choice(p, c);
        if (ch->proc == proc && ch->mem == mem &&
            (proc == HT_PROC_GPU ? ch->gpu == gpu : ch->numa == numa))
            return c;
    }
    ck_abort_msg("no such choice");
    return -1;
}

const char *htf_shared(const char *file)
{
    static char path[1024];
    const char *dir = getenv("TOPOMAP_SHARED");
    snprintf(path, sizeof path, "%s/hwloc-xml/%s", dir ? dir : "../shared",
             file);
    return tu_exists(path) ? path : NULL;
}
