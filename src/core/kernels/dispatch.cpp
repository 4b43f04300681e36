// Picks the kernels' instruction set once, at run time: the widest one this build has and
// the CPU reports (cpuid through __builtin_cpu_supports), capped by ATTNLAB_KERNEL_ISA.
// The wide builds exist only where cmake/targets/performance.cmake compiled them
// (x86-64, not Emscripten) and said so with ATTNLAB_KERNEL_X86_DISPATCH.
#include "core/kernels/dispatch.h"

#include <cstdlib>
#include <cstring>

namespace attn::kernels {

#if defined(__wasm__)
namespace simd128 { const KernelTable& table(); }
#define ATTN_BASELINE_TABLE simd128::table
#else
namespace sse2 { const KernelTable& table(); }
#define ATTN_BASELINE_TABLE sse2::table
#endif
#if defined(ATTNLAB_KERNEL_X86_DISPATCH)
namespace avx2 { const KernelTable& table(); }
namespace avx512 { const KernelTable& table(); }
#endif

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::Baseline: return "baseline";
    case Isa::Avx2: return "avx2";
    case Isa::Avx512: return "avx512";
  }
  return "baseline";
}

bool parse_isa(const char* text, Isa& out) {
  if (!text) return false;
  for (Isa isa : {Isa::Baseline, Isa::Avx2, Isa::Avx512})
    if (std::strcmp(text, isa_name(isa)) == 0) {
      out = isa;
      return true;
    }
  return false;
}

const KernelTable* kernel_table(Isa isa) {
  switch (isa) {
    case Isa::Baseline: return &ATTN_BASELINE_TABLE();
#if defined(ATTNLAB_KERNEL_X86_DISPATCH)
    case Isa::Avx2:
      if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return &avx2::table();
      return nullptr;
    case Isa::Avx512:
      if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma")) return &avx512::table();
      return nullptr;
#else
    default: return nullptr;
#endif
  }
  return nullptr;
}

std::vector<Isa> available_isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::Baseline, Isa::Avx2, Isa::Avx512})
    if (kernel_table(isa)) out.push_back(isa);
  return out;
}

const char* requested_isa() {
  const char* env = std::getenv("ATTNLAB_KERNEL_ISA");
  return env ? env : "";
}

const KernelTable& active_kernels() {
  // Chosen on first use and kept: the CPU does not change, and the environment is read once.
  static const KernelTable* const chosen = [] {
    Isa cap = Isa::Avx512;
    Isa asked;
    if (parse_isa(std::getenv("ATTNLAB_KERNEL_ISA"), asked)) cap = asked;
    const KernelTable* best = kernel_table(Isa::Baseline);
    for (Isa isa : available_isas())
      if (static_cast<int>(isa) <= static_cast<int>(cap)) best = kernel_table(isa);
    return best;
  }();
  return *chosen;
}

}  // namespace attn::kernels
