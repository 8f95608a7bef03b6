/*
 * standalone_main.c: runs a harness's LLVMFuzzerTestOneInput on the files named on the
 * command line, without libFuzzer. Tests/c/regressions/run.sh links each harness with it
 * (ASan + UBSan) to replay every saved crash input as a regression test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "cannot open %s\n", argv[i]);
            return 2;
        }
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
        size_t got = fread(data, 1, (size_t)size, f);
        fclose(f);
        LLVMFuzzerTestOneInput(data, got);
        free(data);
        printf("ok %s\n", argv[i]);
    }
    return 0;
}
