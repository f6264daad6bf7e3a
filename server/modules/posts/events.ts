/** What the posts module says happened. */
declare module '../../platform/events' {
  interface DomainEvents {
    /** Someone commented on a post (written to the event outbox in the comment's transaction). */
    'post.commented': [{ commentId: number; postId: number; authorId: number; ownerId: number; title: string }];
  }
}

export {};
