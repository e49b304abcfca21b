// `tetrisbench info`'s CPU line (cli/info_command.h): the model name with the family, model and
// stepping that tell one CPU generation from another, from /proc/cpuinfo texts.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "info_command.h"

namespace tb {
namespace {

std::string from(const std::string& text) {
  std::istringstream in(text);
  return cpu_model_from(in);
}

TEST(CpuModel, NamesAmdCoresByFamilyAndModel) {
  const std::string zen5 =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
      "model name\t: AMD EPYC\nstepping\t: 1\nflags\t\t: fpu avx512f\n\nprocessor\t: 1\n"
      "vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: other\n";
  EXPECT_EQ(from(zen5), "AMD EPYC (family 26 model 2 stepping 1, Zen 5)");  // the first processor only
  EXPECT_EQ(from("vendor_id : AuthenticAMD\ncpu family : 25\nmodel : 17\nmodel name : AMD EPYC 9454\nstepping : 1\n"),
            "AMD EPYC 9454 (family 25 model 17 stepping 1, Zen 4)");
  EXPECT_EQ(from("vendor_id : AuthenticAMD\ncpu family : 25\nmodel : 1\nmodel name : AMD EPYC 7763\nstepping : 1\n"),
            "AMD EPYC 7763 (family 25 model 1 stepping 1, Zen 3)");
}

TEST(CpuModel, OtherVendorsAndMissingFields) {
  EXPECT_EQ(from("vendor_id : GenuineIntel\ncpu family : 6\nmodel : 143\nmodel name : Intel(R) Xeon(R)\n"
                 "stepping : 8\n"),
            "Intel(R) Xeon(R) (family 6 model 143 stepping 8)");
  EXPECT_EQ(from("model name : Some CPU\n"), "Some CPU");  // no family or model
  EXPECT_EQ(from(""), "unknown");
  EXPECT_EQ(from(": no key\nmodel name :\nmodel name : Named\n"), "Named");  // (an empty value is no value)
  EXPECT_EQ(from("vendor_id : AuthenticAMD\ncpu family : x\nmodel : y\nmodel name : Odd\n"),
            "Odd (family x model y)");  // not numbers: no core name, no exception
}

}  // namespace
}  // namespace tb
