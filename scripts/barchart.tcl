# Helper of data_received: writes a bar chart as a PNG file (not run on its own).
#
# A gray-scale bar chart written with nothing but Tcl 8.6 (its zlib command): the chart of
# scripts/data_received.tcl, drawn like scripts/barchart.lua's (the same layout and the
# same 5x7 bitmap font, font5x7.txt beside this file): a title, the unit over the y axis,
# each bar's value above it and its label below it (turned to read downwards when they are
# wider than the bars).
#
#     source barchart.tcl
#     barchart::write chart.png {1.5 0 4} -labels {a b c} -title Data -unit KBytes -format %.1f
namespace eval barchart {
    # The layout, in pixels: the same numbers as barchart.lua's.
    variable GLYPH_W 5 GLYPH_H 7 ADVANCE 6
    variable MARGIN 40 GAP 4 PLOT_HEIGHT 300 MIN_WIDTH 640 MIN_SLOT 12 TITLE_SCALE 2
    # character -> 7 rows of 5 pixels ("X" ink)
    variable glyphs [dict create]
    set f [open [file join [file dirname [info script]] font5x7.txt] r]
    foreach line [split [read $f] \n] {
        if {[string length $line] == 43 && [string index $line 1] eq " "
                && [regexp {^[.X]{5}( [.X]{5}){6}$} [string range $line 2 end]]} {
            dict set glyphs [string index $line 0] [split [string range $line 2 end] " "]
        }
    }
    close $f
    unset f line
}

proc barchart::chunk {kind body} {
    set data $kind$body
    return [binary format I [string length $body]]$data[binary format I [zlib crc32 $data]]
}

proc barchart::text_width {text {scale 1}} {
    variable ADVANCE
    return [expr {([string length $text] * $ADVANCE - 1) * $scale}]
}

# Draws text into the rows (strings of gray levels) with its top left corner at (x, y);
# turned: rotated a quarter turn clockwise, so that it reads downwards. A character the
# font lacks is "?".
proc barchart::draw_text {rowsVar text x y {scale 1} {turned 0}} {
    upvar 1 $rowsVar rows
    variable glyphs
    variable GLYPH_W
    variable GLYPH_H
    variable ADVANCE
    set height [expr {$GLYPH_H * $scale}]
    set width [string length [lindex $rows 0]]
    for {set k 0} {$k < [string length $text]} {incr k} {
        set char [string index $text $k]
        set glyph [expr {[dict exists $glyphs $char] ? [dict get $glyphs $char] : [dict get $glyphs ?]}]
        for {set gy 0} {$gy < $GLYPH_H} {incr gy} {
            set pattern [lindex $glyph $gy]
            for {set gx 0} {$gx < $GLYPH_W} {incr gx} {
                if {[string index $pattern $gx] ne "X"} continue
                for {set dy 0} {$dy < $scale} {incr dy} {
                    for {set dx 0} {$dx < $scale} {incr dx} {
                        set tx [expr {($k * $ADVANCE + $gx) * $scale + $dx}]
                        set ty [expr {$gy * $scale + $dy}]
                        if {$turned} {
                            set px [expr {$x + $height - 1 - $ty}]
                            set py [expr {$y + $tx}]
                        } else {
                            set px [expr {$x + $tx}]
                            set py [expr {$y + $ty}]
                        }
                        if {$py < 0 || $py >= [llength $rows] || $px < 0 || $px >= $width} continue
                        lset rows $py [string replace [lindex $rows $py] $px $px \x00]
                    }
                }
            }
        }
    }
}

# Writes values (nonnegative numbers) as bars. Options: -labels (one per bar; default the
# bar's number from 0), -title, -unit, -format (of the values written above the bars,
# default %g). Errors (a file that cannot be written) are raised.
proc barchart::write {path values args} {
    variable GLYPH_H
    variable MARGIN
    variable GAP
    variable PLOT_HEIGHT
    variable MIN_WIDTH
    variable MIN_SLOT
    variable TITLE_SCALE
    set options [dict merge {-labels {} -title "" -unit "" -format %g} $args]
    set title [dict get $options -title]
    set n [expr {max([llength $values], 1)}]
    set labels {}
    set texts {}
    set i 0
    foreach v $values {
        set label [lindex [dict get $options -labels] $i]
        lappend labels [expr {$i < [llength [dict get $options -labels]] ? $label : $i}]
        lappend texts [format [dict get $options -format] $v]
        incr i
    }
    set width [expr {max($MIN_WIDTH, 2 * $MARGIN + $MIN_SLOT * $n,
                         [text_width $title $TITLE_SCALE] + 2 * $GAP)}]
    set slot [expr {double($width - 2 * $MARGIN) / $n}]
    foreach kind {labels texts} {
        set widest 0
        set turned($kind) 0
        foreach word [set $kind] {
            set widest [expr {max($widest, [text_width $word])}]
            if {[text_width $word] > $slot - 4} {set turned($kind) 1}  ;# 4 pixels apart
        }
        set extent($kind) [expr {$turned($kind) ? $widest : $GLYPH_H}]
    }
    set title_y [expr {2 * $GAP}]
    set unit_y [expr {$title_y + $GLYPH_H * $TITLE_SCALE + 2 * $GAP}]
    set top [expr {$unit_y + $GLYPH_H + 2 * $GAP + $extent(texts)}]
    set base [expr {$top + $PLOT_HEIGHT}]
    set label_y [expr {$base + $GAP + 2}]
    set height [expr {$label_y + $extent(labels) + 2 * $GAP}]
    set peak 0
    foreach v $values {set peak [expr {max($peak, $v)}]}

    set white [string repeat \xff $width]
    set rows {}
    for {set y 0} {$y < $height} {incr y} {
        set row $white
        if {$y >= $top && $y <= $base} {set row [string replace $row $MARGIN $MARGIN \x00]}
        if {$y == $base} {
            set row [string replace $row $MARGIN [expr {$width - $MARGIN}] \
                         [string repeat \x00 [expr {$width - 2 * $MARGIN + 1}]]]
        }
        lappend rows $row
    }
    set i 0
    foreach v $values {
        set bar_top [expr {$base - int(floor($PLOT_HEIGHT * ($peak > 0 ? double($v) / $peak : 0)))}]
        set left [expr {int(floor($MARGIN + $i * $slot + $slot * 0.15))}]
        set right [expr {max($left, int(floor($MARGIN + ($i + 1) * $slot - $slot * 0.15)))}]
        for {set y $bar_top} {$y < $base} {incr y} {
            if {$y == $bar_top || $right == $left} {
                set fill [string repeat \x00 [expr {$right - $left + 1}]]
            } else {
                set fill \x00[string repeat \xa0 [expr {$right - $left - 1}]]\x00
            }
            lset rows $y [string replace [lindex $rows $y] $left $right $fill]
        }
        set centre [expr {int(floor($MARGIN + ($i + 0.5) * $slot))}]
        set text [lindex $texts $i]
        set label [lindex $labels $i]
        if {$turned(texts)} {
            draw_text rows $text [expr {$centre - $GLYPH_H / 2}] \
                [expr {$bar_top - $GAP - [text_width $text]}] 1 1
        } else {
            draw_text rows $text [expr {$centre - [text_width $text] / 2}] \
                [expr {$bar_top - $GAP - $GLYPH_H}]
        }
        if {$turned(labels)} {
            draw_text rows $label [expr {$centre - $GLYPH_H / 2}] $label_y 1 1
        } else {
            draw_text rows $label [expr {$centre - [text_width $label] / 2}] $label_y
        }
        incr i
    }
    draw_text rows $title [expr {($width - [text_width $title $TITLE_SCALE]) / 2}] $title_y \
        $TITLE_SCALE
    draw_text rows [dict get $options -unit] $GAP $unit_y

    set png \x89PNG\r\n\x1a\n
    append png [chunk IHDR [binary format IIccccc $width $height 8 0 0 0 0]]
    set data \x00[join $rows \x00]  ;# each row preceded by PNG's filter byte 0
    append png [chunk IDAT [zlib compress [encoding convertto iso8859-1 $data]]]
    append png [chunk IEND ""]
    set f [open $path wb]
    try {
        puts -nonewline $f $png
    } finally {
        close $f
    }
}
