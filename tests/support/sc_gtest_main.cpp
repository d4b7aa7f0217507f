// GoogleTest inside SystemC: the kernel calls sc_main; we keep its banner quiet.
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>

#include "tests/support/sim_helpers.hpp"

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  testing::InitGoogleTest(&argc, argv);
  icn::test::install_scratch_cleaner();
  return RUN_ALL_TESTS();
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
