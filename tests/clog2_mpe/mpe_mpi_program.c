/* A 4-rank MPI program logged by MPE's MPI wrappers (liblmpe) plus user states. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "mpi.h"
#include "mpe_log.h"

int main(int argc, char **argv) {
  int rank, size, s0, s1, e0, hrank, value = 0, data[4] = {0, 0, 0, 0};
  MPI_Comm half;
  MPI_Status status;
  char cargo[32] = {0};
  int pos = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPE_Log_get_state_eventIDs(&s0, &s1);
  MPE_Log_get_solo_eventID(&e0);
  if (rank == 0) {
    MPE_Describe_state(s0, s1, "compute", "green");
    MPE_Describe_event(e0, "tick", "red");
  }
  MPE_Log_event(s0, 0, NULL);
  usleep(1000 * (rank + 1));
  MPE_Log_event(s1, 0, NULL);
  /* a ring on MPI_COMM_WORLD, tag 10 + sender */
  if (rank % 2 == 0) {
    MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, 10 + rank, MPI_COMM_WORLD);
    MPI_Recv(&value, 1, MPI_INT, (rank + size - 1) % size, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
  } else {
    MPI_Recv(&value, 1, MPI_INT, (rank + size - 1) % size, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, 10 + rank, MPI_COMM_WORLD);
  }
  /* halves {0,2} and {1,3}, ranked in reverse: half rank 0 is world 2 or 3 */
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  MPI_Comm_rank(half, &hrank);
  if (hrank == 0)
    MPI_Send(data, 4, MPI_INT, 1, 20 + rank, half);
  else
    MPI_Recv(data, 4, MPI_INT, 0, MPI_ANY_TAG, half, &status);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) data[0] = 42;
  MPI_Bcast(data, 4, MPI_INT, 1, MPI_COMM_WORLD);
  MPE_Log_pack(cargo, &pos, 'd', 1, &rank);
  MPE_Log_event(e0, 0, cargo);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
