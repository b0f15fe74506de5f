/*
 * mpe_srcloc.h -- record "where in my code" next to MPE events, so the
 * MPE Trace Viewer for VS Code can jump from the timeline to the source line.
 *
 * Part of MPE Trace Viewer (MIT licence). This is not part of MPE or MPICH.
 *
 * WHAT IT DOES
 *   MPE_SRCLOC() writes one CLOG2 source-location record (SRCLOC, rectype 10:
 *   id, line number, file name) into the MPE log buffer of the calling
 *   process, stamped with the current time and the process's rank in
 *   MPI_COMM_WORLD.  Put it on the line right before the MPE_Log_event /
 *   MPE_Log_comm_event / MPI call it describes.  The viewer gives the
 *   location to the NEXT event that same process (and thread) logs: a state
 *   takes the location of its start event (or, if only the end event has one,
 *   of its end event), an arrow that of its send, a solo event its own.
 *
 * USAGE
 *     #include <mpi.h>
 *     #include <mpe.h>
 *     #include "mpe_srcloc.h"
 *     ...
 *     MPE_SRCLOC();                        // id chosen automatically
 *     MPE_Log_event(solve_start, 0, NULL);
 *     ...
 *     MPE_SRCLOC_ID(42);                   // explicit id (any int)
 *     MPE_Log_event(solve_end, 0, NULL);
 *
 *   Multi-threaded programs (MPE's thread support, mpe_log_thread.h): pass
 *   the thread id MPE uses for your event, under MPE's lock:
 *     MPE_LOG_THREAD_LOCK
 *     MPE_SRCLOC_THREAD(THREADID);
 *     MPE_Log_comm_event(MPI_COMM_WORLD, THREADID, work_start, NULL);
 *     MPE_LOG_THREAD_UNLOCK
 *
 *   Build exactly as usual with MPE (for example `mpecc -mpilog prog.c`).
 *   Compile with -DMPE_SRCLOC_DISABLE to turn every macro into a no-op
 *   (for builds without MPE).  Open the resulting .clog2 file in VS Code (or
 *   convert it with the viewer, which keeps the locations); "Go to source"
 *   appears on the drawables that have one.
 *
 * LIMITS -- read these
 *   - It relies on libmpe INTERNALS (MPE 2.x, CLOG2): the global buffer
 *     CLOG_Buffer, the communicator table CLOG_CommSet and the writer
 *     routine CLOG_Buffer_save_srcloc(), which exist in libmpe but are not a
 *     public API (MPE itself never calls the routine).  These are the calls
 *     the viewer's test traces were made with, under MPE 2.4.5 (CLOG-02.44);
 *     other MPE versions may differ.
 *   - File names are stored in 40 bytes: at most 39 characters survive.
 *     When __FILE__ is longer, the macros pass the longest tail of the path
 *     that fits and starts at a directory boundary ("src/solver/cg.c"), or
 *     the bare file name; the viewer matches such tails against the
 *     workspace by path suffix.  A bare name longer than 39 bytes is cut by
 *     CLOG; the viewer then matches names that start with the cut text.
 *   - The viewer attaches a location to the next event of the same rank and
 *     thread, in the order the events are logged: do not put other logged
 *     events between MPE_SRCLOC() and the event it describes.
 *   - The reference converter clog2TOslog2 drops SRCLOC records; our own
 *     conversion keeps them in a side table of the .slog2 file.
 *   - Before MPE logging is set up (MPI_Init with MPE's wrappers, or
 *     MPE_Init_log) the macros do nothing; do not use them after
 *     MPI_Finalize / MPE_Finish_log.  Ids are only labels: sites may share one.
 */
#ifndef MPE_TRACE_VIEWER_SRCLOC_H
#define MPE_TRACE_VIEWER_SRCLOC_H

#if defined(MPE_SRCLOC_DISABLE)

#define MPE_SRCLOC()                  ((void) 0)
#define MPE_SRCLOC_ID(id)             ((void) (id))
#define MPE_SRCLOC_THREAD(thread)     ((void) (thread))
#define MPE_SRCLOC_ID_THREAD(id, thread) ((void) (id), (void) (thread))

#else

#include <string.h>
#include <mpi.h>
#include <mpe.h>   /* declares CLOG_CommSet_t, CLOG_CommIDs_t, CLOG_CommSet_get_IDs */

#ifdef __cplusplus
extern "C" {
#endif

/* libmpe internals (see LIMITS above).  The buffer's real type is private to
 * libmpe; we only pass its address back to libmpe. */
extern void           *CLOG_Buffer;
extern CLOG_CommSet_t *CLOG_CommSet;
void CLOG_Buffer_save_srcloc(void *buffer, const CLOG_CommIDs_t *commIDs,
                             int thread, int srcloc, int lineno,
                             const char *filename);

#ifdef __cplusplus
}
#endif

/* `inline` is C99/C++; older C compilers get the GNU spelling or plain static. */
#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define MPE_SRCLOC_INLINE static inline
#elif defined(__GNUC__)
#define MPE_SRCLOC_INLINE static __inline__
#else
#define MPE_SRCLOC_INLINE static
#endif

/* CLOG2 keeps 39 bytes of the file name (char[40] with the final NUL). */
#define MPE_SRCLOC_NAME_MAX 39

/* The path as given if it fits, else its longest tail that fits and begins
 * just after a '/' or '\\', else the bare file name (CLOG cuts that one). */
MPE_SRCLOC_INLINE const char *mpe_srcloc_fit_name(const char *path)
{
    size_t len = strlen(path);
    const char *p, *base = path;
    if (len <= MPE_SRCLOC_NAME_MAX)
        return path;
    for (p = path; *p != '\0'; p++) {
        if (*p == '/' || *p == '\\') {
            base = p + 1;
            if ((size_t) (path + len - base) <= MPE_SRCLOC_NAME_MAX)
                return base;
        }
    }
    return base;
}

/* Writes one record; silently does nothing while MPE logging is not set up. */
MPE_SRCLOC_INLINE void mpe_srcloc_write(int id, int thread, int line, const char *file)
{
    if (CLOG_Buffer != NULL && CLOG_CommSet != NULL)
        CLOG_Buffer_save_srcloc(CLOG_Buffer,
                                CLOG_CommSet_get_IDs(CLOG_CommSet, MPI_COMM_WORLD),
                                thread, id, line, mpe_srcloc_fit_name(file));
}

/* Automatic ids: a counter distinct per call site within a source file where
 * the compiler has __COUNTER__ (GCC, Clang, MSVC, Intel), else the line. */
#if defined(__COUNTER__)
#define MPE_SRCLOC_AUTO_ID (1000 + __COUNTER__)
#else
#define MPE_SRCLOC_AUTO_ID (__LINE__)
#endif

#define MPE_SRCLOC_ID_THREAD(id, thread) \
    mpe_srcloc_write((id), (thread), __LINE__, __FILE__)
#define MPE_SRCLOC_ID(id)             MPE_SRCLOC_ID_THREAD((id), 0)
#define MPE_SRCLOC_THREAD(thread)     MPE_SRCLOC_ID_THREAD(MPE_SRCLOC_AUTO_ID, (thread))
#define MPE_SRCLOC()                  MPE_SRCLOC_ID_THREAD(MPE_SRCLOC_AUTO_ID, 0)

#endif /* MPE_SRCLOC_DISABLE */

#endif /* MPE_TRACE_VIEWER_SRCLOC_H */
