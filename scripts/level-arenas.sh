#!/bin/sh
# Plays each difficulty level against the one below it on every rule set
# (ur arena, paired dice) and prints one line per pair. Usage:
#   scripts/level-arenas.sh [GAMES] [FINKEL_TABLE]
# With a Finkel table (ur solve finkel --out FILE), Finkel's level 5 is `perfect`.
set -eu
games=${1:-2000}
table=${2:-}
ur=${UR:-target/release/ur}
for rules in $($ur rules | awk 'NF > 1 && $1 !~ /^(Beyond|`ur)/ {print $1}'); do
    extra=""
    if [ "$rules" = finkel ] && [ -n "$table" ]; then extra="--table $table"; fi
    for low in 1 2 3 4; do
        high=$((low + 1))
        # shellcheck disable=SC2086
        line=$($ur arena --rules "$rules" --bots "level$high,level$low" --games "$games" --seed "$high" --quiet $extra | grep ' vs ')
        echo "$rules $line"
    done
done
