#!/usr/bin/env tclsh8.6
# Messages passed out of order (EARL 2.0 reference, Part III, section 8).
#
# The Tcl twin of scripts/messages_out_of_order.py: same analysis, same output.
#
# A receiver that takes messages in another order than they were sent makes the older
# ones wait in a buffer (Grindstone test suite). At every receive, the queue from the
# sender to the receiver is checked for messages sent before the one just received:
# positions follow time, so a queued send with a smaller position than the receive's
# sendptr is older. Each such receive is reported with the tags of the messages it
# overtook.
#
#     earl run scripts/messages_out_of_order.tcl TRACE
#     TCLLIBPATH="$(python -m earl.tcl --libpath)" tclsh8.6 scripts/messages_out_of_order.tcl TRACE
package require earl

# A list of {pos time src dest tag {tags of older queued messages}}.
proc messages_out_of_order {e} {
    set findings {}
    $e reset
    while {[$e next]} {
        $e event curr
        if {$curr(type) ne "recv"} continue
        set older {}
        foreach send [$e queue $curr(src) $curr(loc)] {
            if {$send < $curr(sendptr)} {
                $e event queued $send
                lappend older $queued(tag)
            }
        }
        if {[llength $older]} {
            lappend findings [list $curr(pos) $curr(time) $curr(src) $curr(loc) $curr(tag) $older]
        }
    }
    return $findings
}

if {$argc != 1} {
    puts stderr "usage: messages_out_of_order.tcl TRACE"
    exit 1
}
if {[catch {EventTrace e -file [lindex $argv 0]} error]} {
    puts stderr "messages_out_of_order.tcl: $error"
    exit 1
}
set findings [messages_out_of_order e]
set overtaken 0
foreach finding $findings {
    lassign $finding pos time src dest tag older
    puts [format "event %s at %.6f s: location %d received tag %d from location %d before older tag(s) %s" \
              $pos $time $dest $tag $src [join $older ", "]]
    incr overtaken [llength $older]
}
puts "[e file]: [llength $findings] messages received out of order ($overtaken older messages overtaken)."
rename e {}
