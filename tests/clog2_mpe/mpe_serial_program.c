#include <stdio.h>
#include <unistd.h>
#include "mpi_null.h"
#include "mpe_log.h"
int main(int argc, char **argv) {
  int s0, s1, e0, bytes_pos = 0;
  char buf[32] = {0};
  PMPI_Init(&argc, &argv);
  MPE_Init_log();
  MPE_Log_get_state_eventIDs(&s0, &s1);
  MPE_Log_get_solo_eventID(&e0);
  MPE_Describe_state(s0, s1, "compute", "green");
  MPE_Describe_event(e0, "tick", "red");
  MPE_Log_bare_event(s0);
  usleep(2000);
  MPE_Log_send(0, 17, 128);
  MPE_Log_receive(0, 17, 128);
  MPE_Log_pack(buf, &bytes_pos, 's', 5, "hello");
  MPE_Log_event(e0, 0, buf);
  usleep(1000);
  MPE_Log_bare_event(s1);
  MPE_Finish_log("real");
  PMPI_Finalize();
  return 0;
}
