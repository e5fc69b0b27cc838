#!/bin/sh
# Times every difficulty level on every rule set (ur bench --bot levelN: the
# level plays itself on one thread) and prints a Markdown table of
# milliseconds per decision. Usage:
#   scripts/level-speeds.sh [GAMES]
# Race sets are timed without a table, as a player without one meets them.
set -eu
games=${1:-4}
ur=${UR:-target/release/ur}
echo "| rule set | level 1 | level 2 | level 3 | level 4 | level 5 |"
echo "|---|---:|---:|---:|---:|---:|"
for rules in $($ur rules | awk 'NF > 1 && $1 !~ /^(Beyond|`ur)/ {print $1}'); do
    row="| \`$rules\`"
    for level in 1 2 3 4 5; do
        ms=$($ur bench --rules "$rules" --bot "level$level" --games "$games" | sed -n 's/.*per decision: \([0-9.]*\) ms.*/\1/p')
        row="$row | $ms"
    done
    echo "$row |"
done
