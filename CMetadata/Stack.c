// Stack.c
//
// Implements CMDStack.h with POSIX threads.

#include "CMDStack.h"

#include <pthread.h>

typedef struct {
    void (*body)(void *);
    void *context;
} CMDStackWork;

static void *cmd_stackWorkEntry(void *argument) {
    CMDStackWork *work = argument;
    work->body(work->context);
    return NULL;
}

int cmd_runOnStack(size_t stackSize, void (*body)(void *), void *context) {
    pthread_attr_t attributes;
    int status = pthread_attr_init(&attributes);
    if (status != 0) {
        return status;
    }
    status = pthread_attr_setstacksize(&attributes, stackSize);
    if (status == 0) {
        CMDStackWork work = {body, context};
        pthread_t thread;
        status = pthread_create(&thread, &attributes, cmd_stackWorkEntry, &work);
        if (status == 0) {
            status = pthread_join(thread, NULL);
        }
    }
    pthread_attr_destroy(&attributes);
    return status;
}
