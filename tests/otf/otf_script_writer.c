/* Writes an OTF (version 1) archive with libotf's own writer from a line script on stdin,
   so the tests build their archives with the official library, independently of EARL.
   Usage: otf_script_writer NAMESTUB STREAMS [COMPRESS]. One record per line, fields
   separated by blanks, names without blanks:
     timer TICKS | proc ID NAME | fgroup ID NAME | func ID NAME GROUP
     pgroup ID NAME N P1..PN | counter ID NAME PROPERTIES UNIT | collop ID NAME TYPE
     file ID NAME | defmarker ID NAME TYPE
     enter T FUNC PROC | leave T FUNC PROC | send T FROM TO GROUP TAG LEN
     recv T AT FROM GROUP TAG LEN | count T PROC COUNTER VALUE
     coll T PROC OP GROUP ROOT SENT RECVD DURATION
     bcoll T PROC OP MATCH GROUP ROOT SENT RECVD | ecoll T PROC MATCH
     fileop T FILE PROC HANDLE OPERATION BYTES DURATION | marker T PROC TOKEN TEXT
     comment T PROC TEXT */
#include <open-trace-format/otf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define U32(i) ((uint32_t)strtoul(f[i], NULL, 10))
#define U64(i) ((uint64_t)strtoull(f[i], NULL, 10))

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  OTF_FileManager* manager = OTF_FileManager_open(100);
  OTF_Writer* w = OTF_Writer_open(argv[1], (uint32_t)atoi(argv[2]), manager);
  if (!w) return 3;
  if (argc > 3) OTF_Writer_setCompression(w, (OTF_FileCompression)atoi(argv[3]));
  char line[4096];
  int ok = 1;
  while (fgets(line, sizeof line, stdin)) {
    char* f[64];
    int n = 0;
    for (char* t = strtok(line, " \t\n"); t && n < 64; t = strtok(NULL, " \t\n")) f[n++] = t;
    if (n == 0) continue;
    const char* c = f[0];
    int r = 1;
    if (!strcmp(c, "timer")) r = OTF_Writer_writeDefTimerResolution(w, 0, U64(1));
    else if (!strcmp(c, "proc")) r = OTF_Writer_writeDefProcess(w, 0, U32(1), f[2], 0);
    else if (!strcmp(c, "fgroup")) r = OTF_Writer_writeDefFunctionGroup(w, 0, U32(1), f[2]);
    else if (!strcmp(c, "func")) r = OTF_Writer_writeDefFunction(w, 0, U32(1), f[2], U32(3), 0);
    else if (!strcmp(c, "pgroup")) {
      uint32_t procs[60];
      uint32_t count = U32(3);
      for (uint32_t i = 0; i < count && i < 60; ++i) procs[i] = U32(4 + i);
      r = OTF_Writer_writeDefProcessGroup(w, 0, U32(1), f[2], count, procs);
    } else if (!strcmp(c, "counter")) r = OTF_Writer_writeDefCounter(w, 0, U32(1), f[2], U32(3), 0, f[4]);
    else if (!strcmp(c, "collop")) r = OTF_Writer_writeDefCollectiveOperation(w, 0, U32(1), f[2], U32(3));
    else if (!strcmp(c, "file")) r = OTF_Writer_writeDefFile(w, 0, U32(1), f[2], 0);
    else if (!strcmp(c, "defmarker")) r = OTF_Writer_writeDefMarker(w, 0, U32(1), f[2], U32(3));
    else if (!strcmp(c, "enter")) r = OTF_Writer_writeEnter(w, U64(1), U32(2), U32(3), 0);
    else if (!strcmp(c, "leave")) r = OTF_Writer_writeLeave(w, U64(1), U32(2), U32(3), 0);
    else if (!strcmp(c, "send")) r = OTF_Writer_writeSendMsg(w, U64(1), U32(2), U32(3), U32(4), U32(5), U32(6), 0);
    else if (!strcmp(c, "recv")) r = OTF_Writer_writeRecvMsg(w, U64(1), U32(2), U32(3), U32(4), U32(5), U32(6), 0);
    else if (!strcmp(c, "count")) r = OTF_Writer_writeCounter(w, U64(1), U32(2), U32(3), U64(4));
    else if (!strcmp(c, "coll"))
      r = OTF_Writer_writeCollectiveOperation(w, U64(1), U32(2), U32(3), U32(4), U32(5), U32(6), U32(7), U64(8), 0);
    else if (!strcmp(c, "bcoll"))
      r = OTF_Writer_writeBeginCollectiveOperation(w, U64(1), U32(2), U32(3), U64(4), U32(5), U32(6), U64(7), U64(8), 0);
    else if (!strcmp(c, "ecoll")) r = OTF_Writer_writeEndCollectiveOperation(w, U64(1), U32(2), U64(3));
    else if (!strcmp(c, "fileop"))
      r = OTF_Writer_writeFileOperation(w, U64(1), U32(2), U32(3), U64(4), U32(5), U64(6), U64(7), 0);
    else if (!strcmp(c, "marker")) r = OTF_Writer_writeMarker(w, U64(1), U32(2), U32(3), f[4]);
    else if (!strcmp(c, "comment")) r = OTF_Writer_writeEventComment(w, U64(1), U32(2), f[3]);
    else {
      fprintf(stderr, "unknown record %s\n", c);
      return 4;
    }
    if (!r) {
      fprintf(stderr, "libotf refused: %s\n", c);
      ok = 0;
    }
  }
  OTF_Writer_close(w);
  OTF_FileManager_close(manager);
  return ok ? 0 : 5;
}
