/* Encodes and decodes one value with an installed libsmc (spec §4.2: i32 7 is 03 07000000). */
#include <stdio.h>
#include <string.h>

#include "smc/smc.h"

int main(void)
{
    smc_value_t v = {0};
    v.type = SMC_TYPE_I32;
    v.i32 = 7;
    uint8_t buf[8];
    size_t n = 0;
    static const uint8_t want[] = {0x03, 0x07, 0x00, 0x00, 0x00};
    if (smc_encode(&v, buf, sizeof buf, &n, NULL) != SMC_OK || n != sizeof want ||
        memcmp(buf, want, n) != 0) {
        fputs("smc-consumer: encoding i32 7 did not give 0307000000\n", stderr);
        return 1;
    }
    printf("smc-consumer: libsmc %s encodes i32 7 as 0307000000\n", smc_version());
    return 0;
}
