/* bcryptprimitives.dll for the smoke runs under Wine 8 (Debian 12's), which lacks it. Rust's
 * standard library (1.78 and later) takes its random numbers from ProcessPrng here, as Windows
 * 10 and later provide it; without the DLL, Windows programs built by Rust do not start under
 * that Wine. This one forwards to RtlGenRandom (advapi32's SystemFunction036), which Wine has.
 * Only `cargo xtask smoke` puts it beside the Windows build; Windows has its own. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
