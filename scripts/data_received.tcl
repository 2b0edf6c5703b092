#!/usr/bin/env tclsh8.6
# Data received per location, as a bar chart (EARL thesis, section 7.4).
#
# The Tcl twin of scripts/data_received.py: same analysis, same output.
#
# Adds up the length of every received message on its receiving location, prints the
# totals and draws them as a bar chart (PNG, written by barchart.tcl beside this script,
# so no display is needed). The thesis' own version, Fig. 7.9, draws with BLT in wish.
#
#     earl run scripts/data_received.tcl TRACE [OUTPUT.png] [--output OUTPUT.png]
#     TCLLIBPATH="$(python -m earl.tcl --libpath)" tclsh8.6 scripts/data_received.tcl TRACE
# The chart goes to data_received.png in the current directory by default.
package require earl
source [file join [file dirname [info script]] barchart.tcl]

# The bytes received, a list indexed by location.
proc data_received {e} {
    set received [lrepeat [$e nrlocs] 0]
    $e reset
    while {[$e next]} {
        $e event curr
        if {$curr(type) eq "recv"} {
            lset received $curr(loc) [expr {[lindex $received $curr(loc)] + $curr(len)}]
        }
    }
    return $received
}

proc usage {problem} {
    puts stderr "usage: data_received.tcl TRACE \[OUTPUT\] \[--output OUTPUT\]"
    puts stderr "data_received.tcl: error: $problem"
    exit 2
}

set positional {}
set output_option {}
for {set i 0} {$i < $argc} {incr i} {
    set word [lindex $argv $i]
    if {$word eq "--output"} {
        if {$i + 1 >= $argc} {usage "argument --output: expected one argument"}
        set output_option [lindex $argv [incr i]]
    } else {
        lappend positional $word
    }
}
if {[llength $positional] < 1} {usage "the following arguments are required: trace"}
if {[llength $positional] > 2} {usage "unrecognized arguments: [lindex $positional 2]"}
set output [expr {$output_option ne "" ? $output_option :
                  [llength $positional] == 2 ? [lindex $positional 1] : "data_received.png"}]

if {[catch {EventTrace e -file [lindex $positional 0]} error]} {
    puts stderr "data_received.tcl: $error"
    exit 1
}
set received [data_received e]
set labels {}
set width 20
for {set loc 0} {$loc < [llength $received]} {incr loc} {
    set name [e locsym $loc]
    lappend labels [expr {$name eq $loc ? $loc : "$loc ($name)"}]
    set width [expr {max($width, [string length [lindex $labels end]])}]
}
puts [format "%-*s %14s %12s" $width location bytes KBytes]
set total 0
foreach label $labels count $received {
    puts [format "%-*s %14s %12.1f" $width $label $count [expr {$count / 1024.0}]]
    set total [expr {$total + $count}]
}
puts "[e file]: $total bytes received in total."
set kbytes {}
set names {}
for {set loc 0} {$loc < [llength $received]} {incr loc} {
    lappend kbytes [expr {[lindex $received $loc] / 1024.0}]
    lappend names [e locsym $loc]
}
if {[catch {barchart::write $output $kbytes -labels $names -unit "data \[KBytes\]" -format %.1f \
                -title "Data received per location: [file tail [e file]]"} problem]} {
    puts stderr "data_received.tcl: cannot write $output: $problem"
    exit 1
}
puts "bar chart: $output"
rename e {}
