for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p $OUT/logs
{
KS_CUDA_ARCHITECTURES=90 OUT=$OUT/logs scripts/device-check.sh kinetic-run ks_python_package || exit 1
b=build-device-90
so=$(ls $b/python/kinetic_studio/_core*.so)
echo "== stdc++ symbols exported by _core: $(nm -D --defined-only $so | c++filt | grep -c 'std::')"
ctest --test-dir $b -R "python_" --output-on-failure -j3 > $OUT/logs/ctest.txt 2>&1; grep -E "Test +#|tests passed|FAILED|Fatal|Error" $OUT/logs/ctest.txt
PYTHONPATH=$b/python KS_KINETIC_RUN=$b/app/cli/kinetic-run python3 -m pytest -v -rs -p no:cacheprovider tests/python/test_gpu.py 2>&1 | grep -E "PASS|FAIL|SKIP|passed|failed"
PYTHONPATH=$b/python python3 bench/python_vs_cli.py $b/app/cli/kinetic-run --backend cuda --repeat 3 --json $OUT/python_vs_cli.json
} > $OUT/device.txt 2>&1
tail -25 $OUT/device.txt
