#include "gen/message_events.h"

#include <algorithm>

namespace earl::gen {

WriterEvent& emit_send(ProgramState& state, Message& m) {
  const int l = state.master(m.src);
  WriterEvent& e = state.emit(l, WriterEventKind::Send, -1, state.after(l, 1, 2));
  e.peer = state.master(m.dest);
  e.tag = m.tag;
  e.len = m.len;
  m.send_time = e.time;
  return e;
}

WriterEvent& emit_receive(ProgramState& state, const Message& m) {
  const int l = state.master(m.dest);
  WriterEvent& e =
      state.emit(l, WriterEventKind::Recv, -1, std::max(state.after(l, 1, 2), arrival_time(state, m)));
  e.peer = state.master(m.src);
  e.tag = m.tag;
  e.len = m.len;
  return e;
}

}  // namespace earl::gen
