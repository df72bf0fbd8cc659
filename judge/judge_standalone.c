/* `smc-judge`: the judge without the smc CLI around it (same options as `smc conformance`). */
#include "judge.h"

int main(int argc, char **argv)
{
    return smc_judge_main(argc, argv);
}
