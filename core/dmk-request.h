/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One run request for every front end: what the user asked for (target,
 * profile or tests, mode and mix share, size, passes, times, verify, a
 * sweep or a lab test, the backend and its options), described by one
 * table of options (name, value, range, default, help) that the CLI and
 * the window both parse and print from, and one builder that turns it
 * into a DmkRunSpec with CrystalDiskMark's rules and checks it. The lab
 * tests' own settings are dmk-lab.h's table and the backends' options
 * their descriptors' (dmk_backend_set_option): not repeated here. */
#ifndef DMK_REQUEST_H
#define DMK_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmk-error.h"
#include "dmk-lab.h"
#include "dmk-platform.h"
#include "dmk-spec.h"
#include "dmk-sweep.h"

/* ---- exit statuses: one meaning per number, for drivemark-cli and for
 * the window's scripted runs (--quit-when-done) alike. */
typedef enum {
    DMK_EXIT_OK = 0,
    DMK_EXIT_FAILED = 1,   /* failed, target refused, a bad result file */
    DMK_EXIT_USAGE = 2,    /* a bad option; the message names it and its range */
    DMK_EXIT_BAD_DATA = 3, /* done, but --verify found a block that did not read back */
    DMK_EXIT_SIGNAL = 128, /* + the signal's number */
    DMK_EXIT_INTERRUPTED = DMK_EXIT_SIGNAL + 2, /* SIGINT, or the window's Stop */
    DMK_EXIT_TERMINATED = DMK_EXIT_SIGNAL + 15, /* SIGTERM */
} DmkExitStatus;

/* "0 done, 1 failed, ...": the table's words, for help texts. */
char *dmk_exit_status_text(char *buf, size_t len);
/* The table's rows, for the man pages: how many, and row i's status
 * with its meaning ("done"); -1 past the end. */
size_t dmk_exit_status_count(void);
int dmk_exit_status_at(size_t i, const char **meaning);

/* ---- the request ---------------------------------------------------- */

typedef enum {
    DMK_REQUEST_RUN = 0,   /* a profile's tests, or the --test ones */
    DMK_REQUEST_SWEEP = 1, /* request.sweep */
    DMK_REQUEST_LAB = 2,   /* request.lab */
} DmkRequestKind;

typedef enum {
    DMK_REQ_TARGET,
    DMK_REQ_PROFILE,
    DMK_REQ_TEST,
    DMK_REQ_MODE,
    DMK_REQ_READ_SHARE,
    DMK_REQ_MIX,
    DMK_REQ_SIZE,
    DMK_REQ_PASSES,
    DMK_REQ_MEASURE,
    DMK_REQ_WARMUP,
    DMK_REQ_INTERVAL,
    DMK_REQ_TIMELINE,
    DMK_REQ_WATCHDOG,
    DMK_REQ_DATA,
    DMK_REQ_VERIFY,
    DMK_REQ_BACKEND,
    DMK_REQ_COMMENT,
    DMK_REQ_N_OPTIONS
} DmkRequestOptionId;

#define DMK_REQ_BIT(id) (1u << (id))

typedef enum {
    DMK_REQ_VALUE_FLAG,    /* no value */
    DMK_REQ_VALUE_PATH,    /* a target */
    DMK_REQ_VALUE_CHOICE,  /* one word of `choices` (a profile, a backend: their tables') */
    DMK_REQ_VALUE_TEST,    /* a test by CrystalDiskMark's name */
    DMK_REQ_VALUE_UINT,    /* an integer in [min, max] */
    DMK_REQ_VALUE_SIZE,    /* a binary size in [min, max] */
    DMK_REQ_VALUE_SECONDS, /* seconds in [min, max] */
    DMK_REQ_VALUE_TEXT,    /* free text, valid UTF-8 (the comment) */
} DmkRequestValueKind;

/* Which front end offers an option. */
#define DMK_REQ_CLI           (1u << 0)
#define DMK_REQ_WINDOW        (1u << 1)
#define DMK_REQ_WINDOW_HIDDEN (1u << 2) /* the window's, for tests: not in its --help */

/* Which requests an option applies to (DMK_REQ_KIND(DMK_REQUEST_RUN) ...). */
#define DMK_REQ_KIND(k) (1u << (k))

typedef struct {
    DmkRequestOptionId id;
    const char *name;  /* "passes": --passes everywhere */
    const char *value; /* "N"; NULL for a flag */
    DmkRequestValueKind kind;
    double min, max;     /* UINT, SIZE, SECONDS */
    double lab_max;      /* > 0: the bound for a lab test instead (SIZE: a whole drive) */
    double def;          /* the default; < 0 for a derived one (the help says which) */
    const char *choices; /* CHOICE: "rw, read, write or mix"; NULL: a table's (backends) */
    unsigned kinds;      /* DMK_REQ_KIND bits where it applies */
    unsigned fronts;     /* DMK_REQ_CLI | DMK_REQ_WINDOW ... */
    const char *help;    /* NULL: the front end writes it from a registry (--backend) */
} DmkRequestOption;

size_t dmk_request_option_count(void);
const DmkRequestOption *dmk_request_option(DmkRequestOptionId id);
/* "passes" (no dashes), or NULL. */
const DmkRequestOption *dmk_request_option_by_name(const char *name);
/* o's help line, written into buf (len bytes) and returned: the table's,
 * and for an option the lab tests share (--size, --warmup, --test) with
 * each lab test's default from dmk-lab.h's table (dmk-request-help.c).
 * NULL for --backend, whose help each front end writes from the registry. */
const char *dmk_request_option_help(const DmkRequestOption *o, char *buf, size_t len);

/* The words o's value may be, for completions and man pages: the
 * table's behind it (profiles, --mode's and --data's words, the backend
 * registry, CrystalDiskMark's sizes, the profiles' test names, a small
 * range of numbers), up to max of them into words; how many there are
 * (0: any value, such as a path). The words stay valid for the program's
 * life. */
size_t dmk_request_option_choices(const DmkRequestOption *o, const char **words, size_t max);

#define DMK_REQUEST_TESTS_MAX (DMK_MAX_TESTS / 2)

typedef struct {
    DmkRequestKind kind;
    unsigned given; /* DMK_REQ_BIT of each option set (dmk_run_request_set) */
    char target[1024];
    /* target names a raw block device; writes need device_confirm to
     * name it (DmkRunSpec.device). */
    bool device;
    char device_confirm[1024];
    char profile[32];
    char tests[DMK_REQUEST_TESTS_MAX][48]; /* replace the profile's (a run, a lab's write) */
    size_t n_tests;
    DmkRunMode mode;
    uint32_t read_share; /* mode mix, and the window's Mix column */
    bool mix;            /* the profile's tests mixed too, at read_share (the window) */
    uint64_t size;
    uint32_t passes;
    double measure_s, warmup_s, interval_s, timeline_s, watchdog_s;
    DmkDataKind data;
    bool verify;
    /* The window's "Verify written data" is a standing setting: a run
     * with nothing written has nothing to verify, instead of a refusal. */
    bool verify_if_writes;
    DmkSweep sweep;              /* kind DMK_REQUEST_SWEEP */
    DmkLabParams lab;            /* kind DMK_REQUEST_LAB: its settings (dmk-lab.h's table) */
    char backend[16];            /* a name of the registry's; "native" by default */
    DmkBackendOpts backend_opts; /* the backend's own options (dmk_backend_set_option) */
    bool null_clock_simulated;   /* the null backend's simulated clock (tests) */
    char comment[512];           /* --comment: the result's (DmkRunSpec.comment) */
} DmkRunRequest;

/* Every option at the table's default; kind's lab test (if a lab
 * request) at dmk-lab.h's defaults. */
void dmk_run_request_init(DmkRunRequest *r, DmkRequestKind kind, DmkLabKind lab);

/* Option id from its text, parsed and range-checked by the table, the
 * message naming --NAME and its range; a flag takes value NULL. */
int dmk_run_request_set(DmkRunRequest *r, DmkRequestOptionId id, const char *value, DmkError *err);

/* --mode's word for m: "rw", "read", "write", "mix". */
const char *dmk_run_mode_name(DmkRunMode m);

/* The backend the request names (native when none). */
const DmkBackend *dmk_run_request_backend(const DmkRunRequest *r);

/* The spec of r, with CrystalDiskMark's rules (a warm-up as long as a
 * pass unless given; mix at 70 % reads unless --read-share), checked
 * (dmk_run_spec_validate): DMK_OK, or DMK_E_INVAL with what to change. */
int dmk_run_request_build(const DmkRunRequest *r, DmkRunSpec *spec, DmkError *err);

#endif
