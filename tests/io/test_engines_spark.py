"""clfmetrics.io.spark_counts on a local Spark session (one session for the module).

Spark's JVM takes tens of seconds to start on a busy machine: the ``spark`` fixture marks
these tests ``jvm`` (``make test`` runs them, ``make check`` does not).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from clfmetrics import spark_counts


@pytest.fixture(scope="module")
def spark():
    sql = pytest.importorskip("pyspark.sql")  # pinned in requirements-dev.txt
    session = (
        sql.SparkSession.builder.master("local[1]")
        .appName("clfmetrics-tests")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.default.parallelism", "1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        # Interpreted plans: whole-stage code generation compiles Java source (Janino) for
        # every query, and adaptive execution re-plans each one; on a few hundred rows both
        # cost more CPU than they save.
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
        .config("spark.sql.adaptive.enabled", "false")
        # The client JIT alone and the serial collector: the JVM's optimising compiler and
        # parallel GC threads cost more CPU than this short session ever gets back.
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_spark_counts_equal_numpy_and_check_their_input(spark):
    rng = np.random.default_rng(2)
    y = rng.choice(["x", "y", "z"], size=500).tolist()
    p = [t if r < 0.7 else "x" for t, r in zip(y, rng.random(500).tolist(), strict=True)]
    frame = spark.createDataFrame(list(zip(y, p, strict=True)), "y string, p string")
    *keys, counts = spark_counts(frame, ["y", "p"])
    got = dict(zip(zip(*(k.tolist() for k in keys), strict=True), counts.tolist(), strict=True))
    assert counts.dtype == np.int64 and got == Counter(zip(y, p, strict=True))

    pre = frame.groupBy("y", "p").count().withColumnRenamed("count", "n")
    *keys, counts = spark_counts(pre.union(pre), ["y", "p"], counts="n")
    doubled = dict(zip(zip(*(k.tolist() for k in keys), strict=True), counts.tolist(), strict=True))
    assert doubled == {k: 2 * v for k, v in got.items()}

    bad = spark.createDataFrame(
        [("a", None, 1.0), ("a", "b", 0.5), ("b", "b", -1.0)], "y string, p string, n double"
    )
    with pytest.raises(ValueError, match="label column 'p' has NULL"):
        spark_counts(bad, ["y", "p"])
    with pytest.raises(ValueError, match="fractional"):
        spark_counts(bad.where("p IS NOT NULL"), ["y", "p"], counts="n")
    with pytest.raises(ValueError, match="negative"):
        spark_counts(bad.where("n < 0"), ["y", "p"], counts="n")
    with pytest.raises(ValueError, match="no column 'q'"):
        spark_counts(bad, ["y", "q"])
    with pytest.raises(ValueError, match="empty"):
        spark_counts(bad.where("false"), ["y", "p"])
