"""Parallel work: the task protocol, the executor that maps tasks in process or on
Dask, and the Dask side itself (imported only when a Dask executor is asked for).

``tasks`` defines what a task and a failed task are; ``stages`` how a caller shows
the stages of a long computation; ``executor`` chooses where the
tasks of a map run; ``_dask`` is the only module that imports Dask, and
``_dask_preload`` is what a local Dask worker imports as it starts.
"""

from .executor import SCHEDULER_ENV, ExecutorSpec, map_tasks, mapper, shutdown_executors
from .stages import QueryLabel, QuietStage, Stage, Stages, query_stage, quiet_stages
from .tasks import MapTasks, Progress, TaskFailed, map_in_process

__all__ = ["ExecutorSpec", "MapTasks", "Progress", "SCHEDULER_ENV", "TaskFailed", "map_in_process",
           "map_tasks", "mapper", "shutdown_executors", "QueryLabel", "QuietStage", "Stage",
           "Stages", "query_stage", "quiet_stages"]
