//! The workflow's steps as commands: the pull-request comment in every state it is posted.

mod comment;
