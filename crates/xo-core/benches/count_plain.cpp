// Baseline for the count benchmark: a plain memoised count of 4x4 four-in-a-row games, keyed by
// the whole board in a hash map. Prints "first second draws" for the empty board.
#include <cstdint>
#include <cstdio>
#include <unordered_map>

struct Counts { unsigned long long first, second, draws; };

static const int N = 4;
static uint32_t lines[10];
static std::unordered_map<uint32_t, Counts> memo;

static bool has_line(uint32_t m) {
    for (uint32_t l : lines) if ((m & l) == l) return true;
    return false;
}

static Counts count(uint32_t x, uint32_t o) {
    uint32_t key = x << 16 | o;
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
    Counts c{0, 0, 0};
    bool x_to_move = __builtin_popcount(x) == __builtin_popcount(o);
    if (has_line(x)) c.first = 1;
    else if (has_line(o)) c.second = 1;
    else if ((x | o) == 0xFFFF) c.draws = 1;
    else {
        for (int cell = 0; cell < N * N; cell++) {
            uint32_t bit = 1u << cell;
            if ((x | o) & bit) continue;
            Counts r = x_to_move ? count(x | bit, o) : count(x, o | bit);
            c.first += r.first; c.second += r.second; c.draws += r.draws;
        }
    }
    memo[key] = c;
    return c;
}

int main() {
    int k = 0;
    for (int r = 0; r < N; r++) { uint32_t m = 0; for (int c = 0; c < N; c++) m |= 1u << (r * N + c); lines[k++] = m; }
    for (int c = 0; c < N; c++) { uint32_t m = 0; for (int r = 0; r < N; r++) m |= 1u << (r * N + c); lines[k++] = m; }
    uint32_t d1 = 0, d2 = 0;
    for (int i = 0; i < N; i++) { d1 |= 1u << (i * N + i); d2 |= 1u << (i * N + N - 1 - i); }
    lines[k++] = d1; lines[k++] = d2;
    Counts c = count(0, 0);
    std::printf("%llu %llu %llu\n", c.first, c.second, c.draws);
    return 0;
}
