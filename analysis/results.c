/*
 * Results files: the spec hash and the reader (docs/interfaces.md,
 * "Results file").  A results file is JSON lines: one header, then one line
 * per finished point, each appended whole and synced by rcuprof sweep.  A
 * kill can leave at most the last line torn (no newline): it is ignored.
 */
#define _GNU_SOURCE
#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* SHA-256 (FIPS 180-4), for the spec hash only: the CLI links no OpenSSL. */

static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha_block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
    int i;

    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16
               | (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);

        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = h[0]; b = h[1]; c = h[2]; d = h[3];
    e = h[4]; f = h[5]; g = h[6]; hh = h[7];
    for (i = 0; i < 64; i++) {
        t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g))
             + sha_k[i] + w[i];
        t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22))
             + ((a & b) ^ (a & c) ^ (b & c));
        hh = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

void rcuprof_sha256_hex(const void *data, size_t len, char hex[65])
{
    uint32_t h[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    };
    const unsigned char *p = data;
    unsigned char last[128];
    uint64_t bits = (uint64_t)len * 8;
    size_t rest, i, nlast;

    for (; len >= 64; len -= 64, p += 64)
        sha_block(h, p);
    rest = len;
    memset(last, 0, sizeof(last));
    memcpy(last, p, rest);
    last[rest] = 0x80;
    nlast = rest + 1 + 8 <= 64 ? 64 : 128;
    for (i = 0; i < 8; i++)
        last[nlast - 1 - i] = (unsigned char)(bits >> (8 * i));
    sha_block(h, last);
    if (nlast == 128)
        sha_block(h, last + 64);
    for (i = 0; i < 8; i++)
        snprintf(hex + 8 * i, 9, "%08x", h[i]);
}

int rcuprof_spec_hash(const json_t *spec, char hex[65])
{
    char *s;

    if (!json_is_object(spec))
        return -1;
    s = json_dumps(spec, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    if (s == NULL)
        return -1;
    rcuprof_sha256_hex(s, strlen(s), hex);
    free(s);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Reading                                                                 */

static const char *const status_names[] = { "ok", "failed", "timeout",
                                            "crashed" };

const char *rcuprof_point_status_name(int status)
{
    return status >= 0 && status < 4 ? status_names[status] : "?";
}

int rcuprof_point_status_parse(const char *s)
{
    int i;

    for (i = 0; s != NULL && i < 4; i++)
        if (strcmp(s, status_names[i]) == 0)
            return i;
    return -1;
}

long rcuprof_results_variant(rcuprof_results *rs, const char *name, int add)
{
    size_t i;
    char **v;

    for (i = 0; i < rs->nvariants; i++)
        if (strcmp(rs->variants[i], name) == 0)
            return (long)i;
    if (!add)
        return -1;
    v = realloc(rs->variants, (rs->nvariants + 1) * sizeof(*v));
    if (v == NULL)
        return -1;
    rs->variants = v;
    if ((v[rs->nvariants] = strdup(name)) == NULL)
        return -1;
    return (long)rs->nvariants++;
}

static int get_uint(json_t *o, const char *key, unsigned *out)
{
    json_t *v = json_object_get(o, key);

    if (!json_is_integer(v) || json_integer_value(v) < 0
        || json_integer_value(v) > 0xfffffff)
        return -1;
    *out = (unsigned)json_integer_value(v);
    return 0;
}

/* The header's checks; a one-line reason in err. */
static int check_header(json_t *h, char *err, size_t errlen)
{
    json_t *spec = json_object_get(h, "spec"), *v;
    const char *hash = json_string_value(json_object_get(h, "spec_hash"));
    char hex[65];
    size_t i;

    if (!json_is_object(h)
        || !json_is_string(json_object_get(h, "type"))
        || strcmp(json_string_value(json_object_get(h, "type")), "header") != 0) {
        snprintf(err, errlen, "first line is not a results header");
        return -1;
    }
    if (!json_is_string(json_object_get(h, "schema"))
        || strcmp(json_string_value(json_object_get(h, "schema")),
                  RCUPROF_RESULTS_SCHEMA) != 0) {
        snprintf(err, errlen, "header schema is not %s",
                 RCUPROF_RESULTS_SCHEMA);
        return -1;
    }
    if (!json_is_object(spec) || !json_is_array(json_object_get(spec, "variants"))
        || json_array_size(json_object_get(spec, "variants")) == 0
        || !json_is_array(json_object_get(spec, "threads"))
        || !json_is_integer(json_object_get(spec, "reps"))
        || !json_is_integer(json_object_get(spec, "seed"))) {
        snprintf(err, errlen, "header spec lacks variants, threads, reps or seed");
        return -1;
    }
    json_array_foreach(json_object_get(spec, "variants"), i, v)
        if (!json_is_string(v)) {
            snprintf(err, errlen, "header spec has a variant that is not a string");
            return -1;
        }
    if (hash == NULL || rcuprof_spec_hash(spec, hex) != 0
        || strcmp(hex, hash) != 0) {
        snprintf(err, errlen, "header spec_hash does not match its spec (the file was edited)");
        return -1;
    }
    return 0;
}

/* One point line into p; -1 with why if it is not a valid point. */
static int parse_point(rcuprof_results *rs, json_t *j, size_t file,
                       rcuprof_point *p, char *why, size_t whylen)
{
    static const char *const uints[] = { "block", "threads", "order", "seq" };
    unsigned *dst[4];
    const char *variant, *msg, *hname;
    char key[256];
    long vi;
    size_t k;

    memset(p, 0, sizeof(*p));
    rcuprof_record_init(&p->result);
    dst[0] = &p->block;
    dst[1] = &p->threads;
    dst[2] = &p->order;
    dst[3] = &p->seq;
    if (!json_is_object(j)
        || !json_is_string(json_object_get(j, "type"))
        || strcmp(json_string_value(json_object_get(j, "type")), "point") != 0) {
        snprintf(why, whylen, "not an object of type \"point\"");
        return -1;
    }
    variant = json_string_value(json_object_get(j, "variant"));
    p->status = rcuprof_point_status_parse(
        json_string_value(json_object_get(j, "status")));
    if (variant == NULL) {
        snprintf(why, whylen, "variant is not a string");
        return -1;
    }
    if (p->status < 0) {
        snprintf(why, whylen, "status is not ok, failed, timeout or crashed");
        return -1;
    }
    for (k = 0; k < 4; k++)
        if (get_uint(j, uints[k], dst[k]) != 0) {
            snprintf(why, whylen, "%s is not a whole number of at least 0",
                     uints[k]);
            return -1;
        }
    if (p->threads == 0) {
        snprintf(why, whylen, "threads is 0");
        return -1;
    }
    p->file = file;
    if (p->status == RCUPROF_POINT_OK) {
        /* The one rule (record.h): an ok point is a measurement. */
        rcuprof_record_decode(json_object_get(j, "result"), &p->result);
        p->result.samples = NULL;       /* the line's JSON goes */
        if (!p->result.ok) {
            snprintf(why, whylen, "an ok point's result: %s", p->result.why);
            return -1;
        }
        if (rs->files[file].host == NULL && p->result.host[0] != '\0') {
            rs->files[file].host = strdup(p->result.host);
            rs->files[file].kernel = strdup(p->result.kernel[0] != '\0'
                                            ? p->result.kernel : "?");
        }
    }
    msg = json_string_value(json_object_get(j, "message"));
    if (msg != NULL && (p->message = strdup(msg)) == NULL) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    /* A point run on a named host (its `host` member, issue 27) is a cell
     * of its own: "VARIANT [HOST]", so compare keeps hosts apart. */
    hname = json_string_value(json_object_get(json_object_get(j, "host"),
                                              "name"));
    if (hname != NULL && hname[0] != '\0') {
        if (snprintf(key, sizeof(key), "%s [%s]", variant, hname)
            >= (int)sizeof(key)) {
            free(p->message);
            snprintf(why, whylen, "variant and host name are too long");
            return -1;
        }
        variant = key;
    }
    vi = rcuprof_results_variant(rs, variant, 1);
    if (vi < 0) {
        free(p->message);
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    p->variant = (size_t)vi;
    return 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL, *nb;
    size_t cap = 0, n = 0, r;

    if (f == NULL)
        return NULL;
    for (;;) {
        if (cap - n < 65536) {
            cap = cap ? cap * 2 : 1 << 20;
            nb = realloc(buf, cap + 1);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
        }
        r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/*
 * The machine state of file fi's ok points (state.h): the split learned
 * over the round-trip samples of all of them, then each run tagged.
 */
static int classify_states(rcuprof_results *rs, size_t fi)
{
    rcuprof_results_file *f = &rs->files[fi];
    size_t i, n = 0, cap = 0;
    double *all = NULL;
    int rc;

    for (i = 0; i < rs->npoints; i++)
        if (rs->points[i].file == fi && rs->points[i].status == RCUPROF_POINT_OK)
            cap += rs->points[i].result.n_rtt;
    all = malloc((cap + 1) * sizeof(*all));
    if (all == NULL)
        return -1;
    for (i = 0; i < rs->npoints; i++) {
        const rcuprof_record *r = &rs->points[i].result;

        if (rs->points[i].file == fi && rs->points[i].status == RCUPROF_POINT_OK) {
            memcpy(all + n, r->rtt_ns, r->n_rtt * sizeof(*all));
            n += r->n_rtt;
        }
    }
    rc = rcuprof_state_learn(all, n, &f->state);
    free(all);
    if (rc != 0)
        return -1;
    for (i = 0; i < rs->npoints; i++)
        if (rs->points[i].file == fi
            && rs->points[i].status == RCUPROF_POINT_OK)
            f->state.n_stalled += rs->points[i].result.n_rtt_stalled;
    for (i = 0; i < rs->npoints; i++) {
        rcuprof_record *r = &rs->points[i].result;

        if (rs->points[i].file == fi && rs->points[i].status == RCUPROF_POINT_OK)
            r->state = rcuprof_state_of_run(&f->state, r->rtt_ns, r->n_rtt,
                                            r->n_rtt_stalled);
    }
    return 0;
}

int rcuprof_results_read(rcuprof_results *rs, const char *path,
                         char *err, size_t errlen)
{
    rcuprof_results_file *f, *nf;
    size_t len = 0, off = 0, lineno = 0, fi, k;
    char *buf = slurp(path, &len), why[256];
    json_error_t je;
    json_t *v;

    if (buf == NULL) {
        snprintf(err, errlen, "cannot read %s (%s): give a results.jsonl written by rcuprof sweep",
                 path, strerror(errno));
        return -1;
    }
    nf = realloc(rs->files, (rs->nfiles + 1) * sizeof(*nf));
    if (nf == NULL) {
        free(buf);
        snprintf(err, errlen, "out of memory reading %s", path);
        return -1;
    }
    rs->files = nf;
    fi = rs->nfiles;
    f = &rs->files[fi];
    memset(f, 0, sizeof(*f));
    f->path = strdup(path);
    rs->nfiles++;

    while (off < len) {
        char *nl = memchr(buf + off, '\n', len - off);
        size_t llen;
        json_t *j;

        if (nl == NULL) {       /* torn: the writer died mid-line */
            f->torn = 1;
            break;
        }
        llen = (size_t)(nl - (buf + off));
        lineno++;
        j = json_loadb(buf + off, llen, 0, &je);
        if (lineno == 1) {
            if (j == NULL) {
                snprintf(err, errlen, "%s is not a results file (line 1: %s): give a results.jsonl written by rcuprof sweep",
                         path, je.text);
                free(buf);
                return -1;
            }
            if (check_header(j, why, sizeof(why)) != 0) {
                snprintf(err, errlen, "%s is not a valid results file (%s): give a results.jsonl written by rcuprof sweep",
                         path, why);
                json_decref(j);
                free(buf);
                return -1;
            }
            f->header = j;
            json_array_foreach(json_object_get(json_object_get(j, "spec"),
                                               "variants"), k, v)
                if (rcuprof_results_variant(rs, json_string_value(v), 1) < 0) {
                    free(buf);
                    snprintf(err, errlen, "out of memory reading %s", path);
                    return -1;
                }
        } else {
            rcuprof_point p;

            if (rs->npoints == rs->cap) {
                size_t cap = rs->cap ? rs->cap * 2 : 256;
                rcuprof_point *np = realloc(rs->points, cap * sizeof(*np));

                if (np == NULL) {
                    json_decref(j);
                    free(buf);
                    snprintf(err, errlen, "out of memory reading %s", path);
                    return -1;
                }
                rs->points = np;
                rs->cap = cap;
            }
            if (j == NULL)
                snprintf(why, sizeof(why), "not JSON: %s", je.text);
            if (j != NULL && parse_point(rs, j, fi, &p, why, sizeof(why)) == 0) {
                rs->points[rs->npoints++] = p;
                f->points++;
            } else if (llen > 0 && f->n_corrupt++ == 0) {
                f->first_corrupt = lineno;
                snprintf(f->corrupt_why, sizeof(f->corrupt_why), "%s", why);
            }
            json_decref(j);
        }
        off += llen + 1;
        f->good_len = off;
        f->lines = lineno;
    }
    free(buf);
    if (f->header == NULL) {
        snprintf(err, errlen, "%s has no header line (%s): give a results.jsonl written by rcuprof sweep",
                 path, len == 0 ? "empty" : "torn");
        return -1;
    }
    if (classify_states(rs, fi) != 0) {
        snprintf(err, errlen, "out of memory reading %s", path);
        return -1;
    }
    return 0;
}

void rcuprof_results_free(rcuprof_results *rs)
{
    size_t i;

    for (i = 0; i < rs->nfiles; i++) {
        free(rs->files[i].path);
        free(rs->files[i].host);
        free(rs->files[i].kernel);
        json_decref(rs->files[i].header);
    }
    for (i = 0; i < rs->npoints; i++)
        free(rs->points[i].message);
    for (i = 0; i < rs->nvariants; i++)
        free(rs->variants[i]);
    free(rs->files);
    free(rs->points);
    free(rs->variants);
    memset(rs, 0, sizeof(*rs));
}
