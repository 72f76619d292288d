# Sourced by scripts/grow_shards.sh and scripts/prove_shards.sh: the segments their jobs bring back
# (docs/database.md).

# Copies into OUT the segments of COPY (a hard-linked copy of FOLDER that a run grew) that FOLDER
# lacks: the ones the run wrote (at the folder's top or in its YYYY-MM/DD/ subfolders).
copy_new_segments() {
  local copy=$1 folder=$2 out=$3 rel
  while IFS= read -r rel; do
    [ -e "$folder/$rel" ] || cp "$copy/$rel" "$out/"
  done < <(cd "$copy" && find . -type f -name '*.seg')
}
