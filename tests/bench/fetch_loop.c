/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * One thread, N cached fetches (EVP_MD_fetch SHA256 + EVP_MD_free) in
 * fetch_loop_ops(), nothing else running: what tests/bench/delay-cost.sh
 * counts instructions of under callgrind (--toggle-collect=fetch_loop_ops),
 * so that the count does not depend on other threads or on timing.
 * usage: fetch_loop N
 */
#include <stdio.h>
#include <stdlib.h>

#include <openssl/evp.h>

__attribute__((noinline)) int fetch_loop_ops(long n);

__attribute__((noinline)) int fetch_loop_ops(long n)
{
    long i;

    for (i = 0; i < n; i++) {
        EVP_MD *md = EVP_MD_fetch(NULL, "SHA256", NULL);

        if (md == NULL)
            return -1;
        EVP_MD_free(md);
    }
    return 0;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;

    if (fetch_loop_ops(1) != 0 || fetch_loop_ops(n) != 0) {
        fprintf(stderr, "fetch_loop: fetch failed\n");
        return 1;
    }
    return 0;
}
