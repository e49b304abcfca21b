// The instruction-set table: each level's CPU mask against the flags CMake compiles it with
// (TB_FLAGS_<LEVEL>, passed in by tests/CMakeLists.txt), the engine's records against the
// kernels' levels, and the one override.  Every level giving the same play is
// tests/signature_test.sh's (bench_signature: `bench --kernel` for every available level).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"
#include "isa.h"
#include "kernel_variants.h"

namespace tb {
namespace {

std::vector<std::string> split_flags(std::string_view list) {  // ';' or ',' between flags
  std::vector<std::string> out;
  std::string cur;
  for (char ch : list) {
    if (ch == ';' || ch == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// The CPU feature each -m flag lets the compiler use.  A flag missing here fails the test: the
// table must learn it (a new bit, detected in kernel_variants.cpp) before CMake may compile it.
const std::map<std::string, std::uint32_t> kFlagFeature = {
    {"-msse4.2", CPU_SSE42},          {"-mpopcnt", CPU_POPCNT},         {"-mxsave", CPU_XSAVE},
    {"-mavx", CPU_AVX},               {"-mavx2", CPU_AVX2},             {"-mfma", CPU_FMA},
    {"-mbmi", CPU_BMI1},              {"-mbmi2", CPU_BMI2},             {"-mlzcnt", CPU_LZCNT},
    {"-mf16c", CPU_F16C},             {"-mmovbe", CPU_MOVBE},           {"-mavx512f", CPU_AVX512F},
    {"-mavx512bw", CPU_AVX512BW},     {"-mavx512cd", CPU_AVX512CD},     {"-mavx512dq", CPU_AVX512DQ},
    {"-mavx512vl", CPU_AVX512VL},     {"-mavx512vpopcntdq", CPU_AVX512VPOPCNTDQ},
    {"-mavx512bitalg", CPU_AVX512BITALG},
};

// What target("arch=...") enables beyond the x86-64-v2 baseline (GCC and clang's definitions
// of the x86-64 micro-architecture levels).
const std::map<std::string, std::string> kArchFlags = {
    {"x86-64-v2", ""},
    {"x86-64-v3", "-mavx;-mavx2;-mbmi;-mbmi2;-mf16c;-mfma;-mlzcnt;-mmovbe;-mxsave"},
    {"x86-64-v4", "-mavx;-mavx2;-mbmi;-mbmi2;-mf16c;-mfma;-mlzcnt;-mmovbe;-mxsave;"
                  "-mavx512f;-mavx512bw;-mavx512cd;-mavx512dq;-mavx512vl"},
};

std::uint32_t mask_of(std::string_view flags) {
  std::uint32_t mask = 0;
  for (const std::string& f : split_flags(flags)) {
    const auto it = kFlagFeature.find(f);
    EXPECT_NE(it, kFlagFeature.end()) << "flag " << f << " has no CPU feature in the table";
    if (it != kFlagFeature.end()) mask |= it->second;
  }
  return mask;
}

// CMake's list of a level, its -m flags only (not -Wno-..., nor the profile's -f and -U).
std::vector<std::string> cmake_flags(IsaLevel level) {
  std::string_view list;
  switch (level) {
    case ISA_SSE42: list = TB_CMAKE_FLAGS_SSE42; break;
    case ISA_AVX2: list = TB_CMAKE_FLAGS_AVX2; break;
    case ISA_AVX512: list = TB_CMAKE_FLAGS_AVX512; break;
    default: break;  // reference and scalar: the baseline's flags alone
  }
  std::vector<std::string> out;
  for (const std::string& f : split_flags(list))
    if (f.rfind("-m", 0) == 0) out.push_back(f);
  return out;
}

TEST(IsaTable, FlagsAreCMakes) {
  for (const KernelVariant& v : kernel_variants()) {
    SCOPED_TRACE(std::string(v.name));
    EXPECT_EQ(split_flags(v.cmake_flags), cmake_flags(v.level));
  }
}

TEST(IsaTable, RequiredMaskIsTheFlagsAndArch) {
  for (const KernelVariant& v : kernel_variants()) {
    SCOPED_TRACE(std::string(v.name));
    const auto arch = kArchFlags.find(std::string(v.arch));
    ASSERT_NE(arch, kArchFlags.end()) << "unknown arch " << v.arch;
    EXPECT_EQ(v.required, mask_of(v.cmake_flags) | mask_of(arch->second));
  }
}

TEST(IsaTable, PriorityOrderAndBest) {
  const auto variants = kernel_variants();
  ASSERT_EQ(variants.size(), static_cast<std::size_t>(ISA_LEVEL_NB));
  for (std::size_t i = 0; i + 1 < variants.size(); ++i) EXPECT_GT(variants[i].level, variants[i + 1].level);
  EXPECT_TRUE(best_kernel().supported());
  for (const KernelVariant& v : variants) {
    if (&v == &best_kernel()) break;
    EXPECT_FALSE(v.supported()) << v.name << " runs here but is not the best";
  }
  std::printf("cpu features %#x: best level %s\n", cpu_features(), std::string(best_kernel().name).c_str());
}

TEST(IsaTable, RecordsFollowTheLevels) {
  for (const KernelVariant& v : kernel_variants()) {
    SCOPED_TRACE(std::string(v.name));
    const IsaRecord& r = isa_record(v.level);
    EXPECT_EQ(r.level, v.level);
    EXPECT_EQ(r.features, v.kernel);
    EXPECT_EQ(&r.variant(), &v);
    EXPECT_EQ(&isa_record(v.kernel), &r);
    EXPECT_EQ(r.drop != nullptr, v.level >= ISA_SSE42);
    EXPECT_EQ(r.drop_rare != nullptr, v.level >= ISA_SSE42);
  }
  EXPECT_EQ(isa_record(FeatureKernel{nullptr}).level, best_kernel().level);
}

TEST(IsaOverride, ForcedThenEnvironmentThenBest) {
  const char* saved = std::getenv(kKernelEnv);
  const std::string restore = saved ? saved : "";
  unsetenv(kKernelEnv);
  EXPECT_EQ(choose_isa("").level, best_kernel().level);
  EXPECT_EQ(choose_isa("scalar").level, ISA_SCALAR);
  setenv(kKernelEnv, "reference", 1);
  EXPECT_EQ(choose_isa("").level, ISA_REFERENCE);
  EXPECT_EQ(choose_isa("scalar").level, ISA_SCALAR);  // --kernel beats the environment
  setenv(kKernelEnv, "avx9000", 1);
  EXPECT_THROW(choose_isa(""), InputError);
  if (saved) setenv(kKernelEnv, restore.c_str(), 1);
  else unsetenv(kKernelEnv);
  EXPECT_THROW(choose_isa("avx9000"), InputError);
  for (const KernelVariant& v : kernel_variants()) {
    if (v.supported()) {
      EXPECT_EQ(choose_isa(v.name).level, v.level);
    } else {
      std::string why;
      EXPECT_EQ(select_kernel(v.name, why), nullptr);
      EXPECT_NE(why.find("which this CPU lacks"), std::string::npos) << why;
      EXPECT_THROW(choose_isa(v.name), InputError);
    }
  }
}

}  // namespace
}  // namespace tb
