// Plain O(n^2) mex loop for octal games, the C++ baseline of benches/grundy.rs.
// Usage: grundy_plain CODE N   (CODE like 0.007; prints the values for heaps 0..N, one a line,
// then "seconds S" on standard error).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s CODE N\n", argv[0]);
        return 2;
    }
    const char* code = argv[1];
    const char* point = std::strchr(code, '.');
    if (!point) return 2;
    std::vector<int> digit;
    digit.push_back(point == code ? 0 : std::strtol(std::string(code, point).c_str(), nullptr, 16));
    for (const char* p = point + 1; *p; ++p) {
        char s[2] = {*p, 0};
        digit.push_back((int)std::strtol(s, nullptr, 16));
    }
    long n_max = std::atol(argv[2]);
    auto start = std::chrono::steady_clock::now();
    std::vector<unsigned> g(n_max + 1);
    std::vector<char> seen;
    for (long n = 0; n <= n_max; ++n) {
        seen.assign(n + 2, 0);
        for (long k = 0; k < (long)digit.size() && k <= n; ++k) {
            int d = digit[k];
            long rest = n - k;
            if ((d & 1) && rest == 0 && k > 0) seen[0] = 1;
            if ((d & 2) && rest > 0 && k > 0 && g[rest] <= (unsigned)n) seen[g[rest]] = 1;
            if ((d & 4) && rest >= 2) {
                for (long a = 1; a <= rest / 2; ++a) {
                    unsigned x = g[a] ^ g[rest - a];
                    if (x <= (unsigned)n) seen[x] = 1;
                }
            }
        }
        unsigned m = 0;
        while (seen[m]) ++m;
        g[n] = m;
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (long n = 0; n <= n_max; ++n) std::printf("%u\n", g[n]);
    std::fprintf(stderr, "seconds %.6f\n", secs);
    return 0;
}
