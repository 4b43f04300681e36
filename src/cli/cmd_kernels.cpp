// attnlab-cli kernels: which SIMD kernels this binary runs, and a check that each
// instruction set it can run agrees with the plain-loop oracle.
//   {"active": "avx512", "requested": "", "available": ["sse2", "avx2", "avx512"],
//    "lanes": 16, "tile": [8, 32], "check": {"sse2": 1.2e-7, ...}}
// "active" is what every command of this process uses: the widest set the CPU has, capped
// by ATTNLAB_KERNEL_ISA=baseline|avx2|avx512 (the test command forces "baseline" to show
// the binary runs on any x86-64). "check" is the largest |difference| between each set's
// streaming attention and reference::attention on a small random problem.
#include "cli/cli_common.h"
#include "core/attention/attention.h"
#include "core/kernels/dispatch.h"
#include "core/attention/reference.h"
#include "core/base/rng.h"

#include <cstdio>

namespace attn::cli {
namespace {

using json = nlohmann::json;

float check_against_reference(const kernels::KernelTable& t) {
  Rng rng(2024);
  const int n_q = 37, n_k = 53, d_k = 24, d_v = 16;
  const Mat q = rng.normal_matrix(n_q, d_k), k = rng.normal_matrix(n_k, d_k), v = rng.normal_matrix(n_k, d_v);
  AttentionOptions options;
  options.causal = true;
  const AttentionResult want = reference::attention(q, k, v, options);
  Mat got(n_q, d_v);
  kernels::AttentionArgs a;
  a.n_q = n_q;
  a.n_k = n_k;
  a.d_k = d_k;
  a.d_v = d_v;
  a.q = q.data();
  a.ldq = d_k;
  a.k = k.data();
  a.ldk = d_k;
  a.v = v.data();
  a.ldv = d_v;
  a.o = got.data();
  a.ldo = d_v;
  a.scale = default_scale(d_k);
  a.causal = true;
  t.attention(a);
  return (got - want.output).cwiseAbs().maxCoeff();
}

Outcome run_kernels(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {}, {}, o); !r.ok()) return r;
  const kernels::KernelTable& active = kernels::active_kernels();
  json out;
  out["active"] = active.name;
  out["requested"] = kernels::requested_isa();
  out["lanes"] = active.lanes;
  out["tile"] = {active.tile_rows, active.tile_cols};
  json available = json::array(), check = json::object();
  for (kernels::Isa isa : kernels::available_isas()) {
    const kernels::KernelTable& t = *kernels::kernel_table(isa);
    available.push_back(t.name);
    check[t.name] = check_against_reference(t);
  }
  out["available"] = available;
  out["check"] = check;
  std::printf("%s\n", json_text(out).c_str());
  return Status::success();
}

}  // namespace

ATTNLAB_CLI_COMMAND(kernels, "kernels",
                    "  kernels                                   the SIMD kernels in use (ATTNLAB_KERNEL_ISA caps them) (JSON)\n",
                    "  Which SIMD kernels this binary runs (the widest set the CPU has, capped by the environment\n"
                    "  variable ATTNLAB_KERNEL_ISA=baseline|avx2|avx512), and for each set the largest difference\n"
                    "  from the plain-loop reference on a small random problem. One JSON line; takes no options.\n",
                    run_kernels);

}  // namespace attn::cli
