/*
 * The skid rule: a sample on the instruction right after a lock-prefixed
 * read-modify-write is flagged as likely skid.  First on synthetic byte
 * sequences (the decoder of the locked forms), then on this program's own
 * code: the instruction after the `lock xadd` of an atomic fetch-add, read
 * back from the ELF file's .text through the symbolizer.
 */
#include "sampler_test_util.h"

static const unsigned char lock_add_then_mov[] = {
    0xF0, 0x48, 0x83, 0x00, 0x01,   /* lock addq $1,(%rax) */
    0x48, 0x8B, 0x10                /* mov (%rax),%rdx */
};

static void test_synthetic(void **state)
{
    static const struct {
        const char *what;
        unsigned char b[16];
        size_t len;
        int locked;
    } insns[] = {
        { "lock addq $1,(%rax)", { 0xF0, 0x48, 0x83, 0x00, 0x01 }, 5, 1 },
        { "lock xadd %eax,(%rdx)", { 0xF0, 0x0F, 0xC1, 0x02 }, 4, 1 },
        { "lock cmpxchg %rcx,0x12345678(%rip)",
          { 0xF0, 0x48, 0x0F, 0xB1, 0x0D, 0x78, 0x56, 0x34, 0x12 }, 9, 1 },
        { "lock addl $1,0x8(%rsp)",
          { 0xF0, 0x83, 0x44, 0x24, 0x08, 0x01 }, 6, 1 },
        { "lock subq $1,0x40(%rbx,%rcx,8)",
          { 0xF0, 0x48, 0x83, 0x6C, 0xCB, 0x40, 0x01 }, 7, 1 },
        { "lock addl $0x100,(%rdi)",
          { 0xF0, 0x81, 0x07, 0x00, 0x01, 0x00, 0x00 }, 7, 1 },
        { "lock incl (%rdi)", { 0xF0, 0xFF, 0x07 }, 3, 1 },
        { "lock cmpxchg16b (%rsi)", { 0xF0, 0x48, 0x0F, 0xC7, 0x0E }, 5, 1 },
        { "addq $1,(%rax) (no lock)", { 0x48, 0x83, 0x00, 0x01 }, 4, 0 },
        { "lock prefix on a register operand (invalid)",
          { 0xF0, 0x48, 0x01, 0xC0 }, 4, 0 },
        { "lock on mov (invalid)", { 0xF0, 0x48, 0x89, 0x07 }, 4, 0 },
    };
    size_t i;

    for (i = 0; i < sizeof(insns) / sizeof(insns[0]); i++) {
        int len = rcuprof_symbolize_locked_insn_len(insns[i].b,
                                                    insns[i].len);

        printf("%-45s len %d\n", insns[i].what, len);
        if (insns[i].locked)
            assert_int_equal(len, (int)insns[i].len);
        else
            assert_int_equal(len, -1);
        assert_int_equal(rcuprof_symbolize_after_locked_rmw(insns[i].b,
                                                            insns[i].len),
                         insns[i].locked);
    }
    /* After the lock add: skid; after the mov that follows: not. */
    assert_int_equal(rcuprof_symbolize_after_locked_rmw(lock_add_then_mov, 5),
                     1);
    assert_int_equal(rcuprof_symbolize_after_locked_rmw(lock_add_then_mov, 8),
                     0);
    assert_int_equal(rcuprof_symbolize_after_locked_rmw(lock_add_then_mov, 0),
                     0);
}

static int g_counter;

__attribute__((noinline)) int bump(void)
{
    return __atomic_fetch_add(&g_counter, 1, __ATOMIC_ACQ_REL) + 7;
}

static void test_own_code(void **state)
{
    struct rcuprof_symbolize *s;
    const unsigned char *code = (const unsigned char *)(uintptr_t)&bump;
    json_t *j = json_object();
    char err[512];
    size_t i;
    int len = -1;

    for (i = 0; i < 64; i++) {
        len = rcuprof_symbolize_locked_insn_len(code + i, 15);
        if (code[i] == 0xF0 && len > 0)
            break;
    }
    if (i == 64)
        fail_msg("no locked instruction in bump()");
    printf("bump+%zu: locked RMW of %d bytes\n", i, len);
    json_object_set_new(j, "mappings", rcuprof_sampler_maps_json());
    assert_int_equal(rcuprof_symbolize_from_json(&s, j, err, sizeof(err)),
                     0);
    /* Read from the file, not from memory: the same bytes. */
    assert_int_equal(rcuprof_symbolize_likely_skid(
        s, (uint64_t)(uintptr_t)(code + i + len)), 1);
    assert_int_equal(rcuprof_symbolize_likely_skid(
        s, (uint64_t)(uintptr_t)(code + i)), 0);
    assert_int_equal(rcuprof_symbolize_likely_skid(s, 16), -1);
    rcuprof_symbolize_free(s);
    json_decref(j);
    assert_int_equal(bump(), 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synthetic),
        cmocka_unit_test(test_own_code),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
